/**
 * Conditions and the `and` / `or` / `not` combinators. A condition wraps a frozen
 * {@link ConditionNode}; its type parameters record the view it belongs to and the metrics it names,
 * so `where()` can refuse other views' fields and metrics at compile time, naming them.
 */
import { ValidationError } from "../errors.js";
import { ConditionNode } from "../operation-node/condition-node.js";
import { conditionShapeProblem } from "../operation-node/condition-shape.js";

declare const CONDITION_TYPE: unique symbol;

/**
 * A filter over fields of view `V`. `M` is the union of the metric names it references (`never` for a
 * condition over dimensions and facts only, which is what `where()` accepts).
 */
export interface Condition<V extends string = string, M extends string = string> {
  readonly node: ConditionNode;
  /** Type-level only: the view and the metrics referenced. */
  readonly [CONDITION_TYPE]: { readonly view: V; readonly metrics: M };
}

/** A condition over dimensions and facts only: what `where()` accepts. */
export type RowCondition<V extends string = string> = Condition<V, never>;

type ViewOf<C> = C extends Condition<infer V, string> ? V : never;
type MetricsOf<C> = C extends Condition<string, infer M> ? M : never;
/** One condition combining `C` (the union of the combined conditions' types). */
type Combined<C> = Condition<ViewOf<C> & string, MetricsOf<C> & string>;

type Maybe<T> = T | null | undefined;

/** Wraps a node as a condition (frozen). */
export function conditionOf<V extends string, M extends string>(node: ConditionNode): Condition<V, M> {
  return Object.freeze({ node }) as unknown as Condition<V, M>;
}

/** A combined condition, refused with a ValidationError when it is too deep or too large to compile. */
function combined<V extends string, M extends string>(fn: string, node: ConditionNode): Condition<V, M> {
  const problem = conditionShapeProblem(node);
  if (problem !== undefined) throw new ValidationError(`${fn}(): ${problem}`);
  return conditionOf(node);
}

export function isCondition(value: unknown): value is Condition {
  if (typeof value !== "object" || value === null) return false;
  const node = (value as { node?: { kind?: unknown } }).node;
  return typeof node === "object" && node !== null && typeof node.kind === "string";
}

function collect(fn: string, conditions: readonly unknown[]): ConditionNode[] {
  const nodes: ConditionNode[] = [];
  conditions.forEach((c, i) => {
    if (c === null || c === undefined) return;
    if (!isCondition(c)) throw new ValidationError(`${fn}(): argument ${i + 1} is not a condition`);
    nodes.push(c.node);
  });
  return nodes;
}

/**
 * All of the conditions. `null`/`undefined` arguments are skipped (handy for optional filters);
 * `and()` of nothing is TRUE.
 */
export function and<const C extends readonly Maybe<Condition>[]>(...conditions: C): Combined<C[number]> {
  const nodes = collect("and", conditions);
  if (nodes.length === 1) return conditionOf(nodes[0]!);
  return nodes.length === 0
    ? conditionOf(ConditionNode.constant(true))
    : combined<ViewOf<C[number]> & string, MetricsOf<C[number]> & string>("and", ConditionNode.and(nodes));
}

/** Any of the conditions. `null`/`undefined` arguments are skipped; `or()` of nothing is FALSE. */
export function or<const C extends readonly Maybe<Condition>[]>(...conditions: C): Combined<C[number]> {
  const nodes = collect("or", conditions);
  if (nodes.length === 1) return conditionOf(nodes[0]!);
  return nodes.length === 0
    ? conditionOf(ConditionNode.constant(false))
    : combined<ViewOf<C[number]> & string, MetricsOf<C[number]> & string>("or", ConditionNode.or(nodes));
}

/** The negation of a condition. */
export function not<V extends string, M extends string>(condition: Condition<V, M>): Condition<V, M> {
  const [node] = collect("not", [condition]);
  if (node === undefined) throw new ValidationError("not(): a condition is required");
  return combined("not", ConditionNode.not(node));
}
