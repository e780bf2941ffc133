/**
 * `SemanticView(viewName, fields)`: the base class of a declared semantic view.
 *
 * ```ts
 * export class Sales extends SemanticView("sales", {
 *   revenue: Metric<bigint>(),
 *   country: Dimension<string>(),
 * }) {}
 * Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
 * ```
 */
import { ValidationError } from "../errors.js";
import type { FieldKind } from "../operation-node/field-node.js";
import type { VariableNode } from "../operation-node/variable-node.js";
import { SemanticQuery, type EmptyRow } from "../query/semantic-query.js";
import type { EmptyShape, GroupableBy } from "../query/query-shape.js";
import type { QueryTypeError } from "../query/query-type-error.js";
import { createField, type Field } from "./field.js";
import { isFieldSpec, type FieldSpec } from "./field-spec.js";
import { validateFieldName, validateViewName, type ReservedFieldName } from "./names.js";
import { declaredView } from "./view-options.js";
import {
  createViewVariable,
  isVariableSpec,
  type VariableSpec,
  type NoVariables,
  type VariableValues,
  type ViewVariable,
} from "./variable.js";

declare const SPEC_VALUE_OF: unique symbol;

/** A view's declarations: members (`Metric()`, `Dimension()`, `Fact()`) and variables (`Variable()`). */
export type FieldSpecs = Readonly<Record<string, FieldSpec | VariableSpec>>;

type SpecKind<S> = S extends FieldSpec<infer K, unknown> ? K : never;
type SpecValue<S> = S extends FieldSpec<FieldKind, infer T> ? T : never;
type NamesOfKind<F extends FieldSpecs, K extends FieldKind> = {
  [N in keyof F & string]: [SpecKind<F[N]>] extends [never] ? never : SpecKind<F[N]> extends K ? N : never;
}[keyof F & string];

/** The static field (and variable) members of a view class. */
export type BoundFields<V extends string, F extends FieldSpecs> = {
  readonly [N in keyof F & string]: F[N] extends VariableSpec<infer T, infer O>
    ? ViewVariable<T, O, N, V>
    : Field<SpecKind<F[N]>, SpecValue<F[N]>, N, V>;
};

/** The static members every view class has. */
export interface SemanticViewStatics<
  V extends string,
  P extends object = NoVariables,
  G extends GroupableBy | undefined = undefined,
> {
  /** The view's declared name (its name in the warehouse unless declared with `{ name }`). */
  readonly viewName: V;
  /** A new, empty query over this view; `.variables()` takes the view's declared variables. */
  query(): SemanticQuery<V, EmptyRow, P, EmptyShape<G>>;
}

/** Instances carry nothing: a view class is used through its static members. */
export interface SemanticViewInstance {
  readonly [SPEC_VALUE_OF]?: never;
}

export type SemanticViewClass<
  V extends string,
  F extends FieldSpecs,
  G extends GroupableBy | undefined = undefined,
> = (new () => SemanticViewInstance) & SemanticViewStatics<V, VariableValues<F>, G> & BoundFields<V, F>;

/** For each metric field, the dimension fields it can be grouped by (a metric left out: every dimension). */
export type GroupableBySpec<F extends FieldSpecs> = {
  readonly [M in NamesOfKind<F, "metric">]?: readonly NamesOfKind<F, "dimension">[];
};

/** The third argument of `SemanticView()`. */
export interface SemanticViewOptions<G> {
  /**
   * The view's name in the warehouse when the declared name cannot be it (`"Odd View"`): the view's own
   * name, taken exactly; a database and schema come from the declared name (`analytics.oddView`).
   */
  readonly name?: string | undefined;
  /**
   * Which dimensions each metric can be grouped by (`lib codegen` emits it from `SHOW SEMANTIC
   * DIMENSIONS ... FOR METRIC`): a refused pair is a type error and a `ValidationError`.
   */
  readonly groupableBy?: G;
}

/** Field declarations with the reserved names turned into readable type errors. */
type NoReservedNames<F> = string extends keyof F
  ? unknown
  : {
      readonly [
        K in keyof F & ReservedFieldName
      ]: QueryTypeError<`field name '${K}' clashes with ${K extends "query" | "viewName" ? `View.${K}` : "a member every class has"}: name the field otherwise and keep the warehouse name with { name: '${K}' }`>;
    };

export function SemanticView<
  const V extends string,
  const F extends FieldSpecs,
  const G extends GroupableBySpec<F> | undefined = undefined,
>(viewName: V, fields: F & NoReservedNames<F>, options?: SemanticViewOptions<G>): SemanticViewClass<V, F, G> {
  validateViewName(viewName);
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new ValidationError(`SemanticView("${viewName}"): fields must be an object of Metric()/Dimension()/Fact()`, {
      source: `SemanticView("${viewName}")`,
    });
  }
  const kinds = new Map<string, FieldKind>();
  const Base = class {};
  Object.defineProperty(Base, "viewName", { value: viewName, enumerable: true });
  const variables: VariableNode[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    validateFieldName(viewName, name);
    if (isVariableSpec(spec)) {
      const variable = createViewVariable(viewName, name, spec);
      variables.push(variable.node);
      Object.defineProperty(Base, name, { value: variable, enumerable: true });
      continue;
    }
    if (!isFieldSpec(spec)) {
      throw new ValidationError(
        `SemanticView("${viewName}"): field "${name}" must be Metric(), Dimension(), Fact() or Variable()`,
        {
          source: `SemanticView("${viewName}")`,
          field: name,
        },
      );
    }
    kinds.set(name, spec.fieldKind);
    Object.defineProperty(Base, name, {
      value: createField(viewName, name, spec.fieldKind, spec.warehouseName ?? name),
      enumerable: true,
    });
  }
  const view = declaredView(viewName, kinds, options);
  Object.freeze(variables);
  Object.defineProperty(Base, "query", {
    value: () => SemanticQuery.create(viewName, variables, view),
    enumerable: false,
  });
  return Base as unknown as SemanticViewClass<V, F, G>;
}
