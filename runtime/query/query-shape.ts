/**
 * What the type checker knows about a query beyond its row type: which names are selected as which
 * kind, which fields are ordered by but not (yet) selected, and the view's metric–dimension rules.
 * The builder's parameter types are computed from it, so each rule the builder checks at run time
 * is also a type error, worded the same way (`QueryTypeError`). Wide types (a `Field<..., string>`
 * built dynamically, a `SemanticQuery<string>`) are never refused here: the run-time check stays.
 */
import type { FieldKind } from "../operation-node/field-node.js";
import type { Field } from "../view/field.js";
import type { Condition } from "./condition.js";
import type { Ordering } from "./ordering.js";
import type { IsLiteral, JoinNames, QueryTypeError, Quoted } from "./query-type-error.js";

/** Per metric field name, the dimension field names it can be grouped by (`SemanticView(..., { groupableBy })`). */
export type GroupableBy = { readonly [metric: string]: readonly string[] | undefined };

export interface QueryShape {
  readonly metrics: string;
  readonly dimensions: string;
  readonly facts: string;
  /** Fields ordered by before they were selected: each must be selected by the time the query compiles. */
  readonly unselectedOrder: string;
  /** The view's rules, or undefined when its declaration has none (then every pair type-checks). */
  readonly groupableBy: GroupableBy | undefined;
}

/** A new query of a view with rules `G`. */
export interface EmptyShape<G extends GroupableBy | undefined = undefined> {
  readonly metrics: never;
  readonly dimensions: never;
  readonly facts: never;
  readonly unselectedOrder: never;
  readonly groupableBy: G;
}

/** What a query whose shape is not known statically (a parameter typed `SemanticQuery<V, R>`) is taken to be. */
export interface AnyShape {
  readonly metrics: string;
  readonly dimensions: string;
  readonly facts: string;
  readonly unselectedOrder: never;
  readonly groupableBy: GroupableBy | undefined;
}

const KIND_METHOD = { metric: "metrics", dimension: "dimensions", fact: "facts" } as const;
type KindMethod = typeof KIND_METHOD;

type Selected<S extends QueryShape> = S["metrics"] | S["dimensions"] | S["facts"];
type Names<F> = F extends { readonly name: infer N extends string } ? N : never;

/** The shape after selecting `F` as `Kind`. */
export type WithSelected<S extends QueryShape, Kind extends FieldKind, F> = {
  readonly metrics: Kind extends "metric" ? S["metrics"] | Names<F> : S["metrics"];
  readonly dimensions: Kind extends "dimension" ? S["dimensions"] | Names<F> : S["dimensions"];
  readonly facts: Kind extends "fact" ? S["facts"] | Names<F> : S["facts"];
  readonly unselectedOrder: Exclude<S["unselectedOrder"], Names<F>>;
  readonly groupableBy: S["groupableBy"];
};

/** The shape after ordering by `O` (orderings or fields): names not selected yet wait for their selection. */
export type WithOrdered<S extends QueryShape, O> = {
  readonly metrics: S["metrics"];
  readonly dimensions: S["dimensions"];
  readonly facts: S["facts"];
  readonly unselectedOrder: S["unselectedOrder"] | Exclude<OrderedName<O>, Selected<S>>;
  readonly groupableBy: S["groupableBy"];
};

type OrderedName<O> =
  O extends Ordering<string, infer N> ? N : O extends Field<FieldKind, unknown, infer N, string> ? N : never;

// ---- selection: metrics(), dimensions(), facts() ----

/** The names of the other elements of tuple `F` (a name given twice in one call is refused at both places). */
type OthersIn<F extends readonly unknown[], I> =
  Exclude<keyof F, keyof (readonly unknown[]) | I> extends infer K extends keyof F
    ? [K] extends [never]
      ? never
      : Names<F[K]>
    : never;

/** Why `F` (element `I` of the call's arguments `All`) cannot be selected as `Kind`, or `F` itself. */
export type SelectCheck<
  F,
  I,
  All extends readonly unknown[],
  Kind extends FieldKind,
  V extends string,
  S extends QueryShape,
> =
  F extends Field<infer K, unknown, infer N, infer FV>
    ? ViewProblem<N, FV, V> extends infer P extends string
      ? [P] extends [never]
        ? KindProblem<N, K, Kind> extends infer P2 extends string
          ? [P2] extends [never]
            ? SelectionProblem<N, I, All, Kind, S> extends infer P3 extends string
              ? [P3] extends [never]
                ? F
                : QueryTypeError<P3>
              : F
            : QueryTypeError<P2>
          : F
        : QueryTypeError<P>
      : F
    : QueryTypeError<`${KindMethod[Kind]}() takes fields such as View.member`>;

type ViewProblem<N extends string, FV extends string, V extends string> =
  IsLiteral<FV> extends true
    ? IsLiteral<V> extends true
      ? [FV] extends [V]
        ? never
        : `${Quoted<N>} is a field of view ${Quoted<FV>}, not ${Quoted<V>}`
      : never
    : never;

type KindProblem<N extends string, K extends FieldKind, Kind extends FieldKind> = [K] extends [Kind]
  ? never
  : [FieldKind] extends [K]
    ? never
    : `${Quoted<N>} is a ${K}: select it with .${KindMethod[K]}()`;

type SelectionProblem<
  N extends string,
  I,
  All extends readonly unknown[],
  Kind extends FieldKind,
  S extends QueryShape,
> =
  IsLiteral<N> extends false
    ? never
    : [N] extends [Selected<S> | OthersIn<All, I>]
      ? `${Quoted<N>} is already selected`
      : ExclusiveProblem<Kind, S> extends infer P extends string
        ? [P] extends [never]
          ? PairProblem<N, Kind, S>
          : P
        : never;

type ExclusiveProblem<Kind extends FieldKind, S extends QueryShape> = Kind extends "metric"
  ? HasLiteral<S["facts"]> extends true
    ? "metrics and facts cannot be selected in the same query"
    : never
  : Kind extends "fact"
    ? HasLiteral<S["metrics"]> extends true
      ? "metrics and facts cannot be selected in the same query"
      : never
    : never;

type HasLiteral<T extends string> = [T] extends [never] ? false : IsLiteral<T>;

/** A dimension `N` not allowed with a selected metric, or a metric `N` not allowed with a selected dimension. */
type PairProblem<N extends string, Kind extends FieldKind, S extends QueryShape> = S["groupableBy"] extends GroupableBy
  ? Kind extends "dimension"
    ? RefusingMetric<S["groupableBy"], S["metrics"], N> extends infer M extends string
      ? [M] extends [never]
        ? never
        : PairMessage<M, N, S["groupableBy"]>
      : never
    : Kind extends "metric"
      ? RefusedDimension<S["groupableBy"], N, S["dimensions"]> extends infer D extends string
        ? [D] extends [never]
          ? never
          : PairMessage<N, D, S["groupableBy"]>
        : never
      : never
  : never;

type RefusingMetric<G extends GroupableBy, M extends string, D extends string> = M extends keyof G
  ? D extends NonNullable<G[M]>[number]
    ? never
    : M
  : never;

type RefusedDimension<G extends GroupableBy, M extends string, D extends string> = M extends keyof G
  ? D extends NonNullable<G[M]>[number]
    ? never
    : D
  : never;

type PairMessage<M extends string, D extends string, G extends GroupableBy> = M extends keyof G
  ? `metric ${Quoted<M>} cannot be grouped by dimension ${Quoted<D>} (${Allowed<NonNullable<G[M]>>})`
  : never;

type Allowed<T extends readonly string[]> = T extends readonly []
  ? "it can be grouped by no dimension"
  : `it can be grouped by: ${JoinNames<T>}`;

// ---- where() ----

/** `C` when it can filter a query of view `V`, else the rule it breaks. */
export type WhereCheck<C, V extends string> =
  C extends Condition<infer CV, infer M>
    ? IsLiteral<M> extends true
      ? QueryTypeError<`metric ${Quoted<M>} cannot be used in where(): filter dimensions and facts, before aggregation`>
      : ForeignViews<CV, V> extends infer O extends string
        ? [O] extends [never]
          ? C
          : QueryTypeError<`a condition on view ${Quoted<O>} cannot filter a query of view ${Quoted<V>}`>
        : C
    : C extends null | undefined
      ? C
      : QueryTypeError<"where() takes a condition such as View.member.eq(value)">;

type ForeignViews<CV extends string, V extends string> =
  IsLiteral<CV> extends true ? (IsLiteral<V> extends true ? Exclude<CV, V> : never) : never;

// ---- orderBy() ----

/** An ordering or field of view `V`, else the rule it breaks. */
export type OrderCheck<O, V extends string> =
  O extends Ordering<infer OV, infer N>
    ? OrderViewCheck<O, N, OV, V>
    : O extends Field<FieldKind, unknown, infer N, infer FV>
      ? OrderViewCheck<O, N, FV, V>
      : QueryTypeError<"orderBy() takes orderings such as View.member.desc(), or fields">;

type OrderViewCheck<O, N extends string, OV extends string, V extends string> =
  ViewProblem<N, OV, V> extends infer P extends string ? ([P] extends [never] ? O : QueryTypeError<P>) : O;

/**
 * The `this` of `toSql()`/`compile()`/`execute()`: anything when every ordered field is selected, else the
 * rule (so it is reported where the query compiles or runs; a union of such queries can still run).
 */
export type OrderedSelected<S extends QueryShape> = [S["unselectedOrder"]] extends [never]
  ? unknown
  : QueryTypeError<`orderBy(): ${Quoted<S["unselectedOrder"]>} is not selected; only selected fields can be ordered by`>;

// ---- limit() / offset() ----

/** `N` when it is a non-negative whole number (or not a literal), else the rule. */
export type NonNegativeInteger<N extends number, Method extends string> = number extends N
  ? N
  : `${N}` extends `-${string}` | `${string}.${string}` | `${string}e${string}` | "NaN" | "Infinity"
    ? QueryTypeError<`${Method}(): expected a non-negative integer, got ${N}`>
    : N;
