/**
 * Conditions and the `and` / `or` / `not` combinators. A condition wraps a frozen
 * {@link ConditionNode}; its type parameters record the view it belongs to and whether it names a
 * metric, so `where()` can refuse other views' fields and metrics at compile time.
 */
import { ValidationError } from "../errors.js";
import { ConditionNode } from "../operation-node/condition-node.js";

declare const CONDITION_TYPE: unique symbol;

export interface Condition<V extends string = string, HasMetric extends boolean = boolean> {
  readonly node: ConditionNode;
  /** Type-level only: the view and whether a metric is referenced. */
  readonly [CONDITION_TYPE]: { readonly view: V; readonly hasMetric: HasMetric };
}

/** A condition over dimensions and facts only: what `where()` accepts. */
export type RowCondition<V extends string = string> = Condition<V, false>;

type Maybe<T> = T | null | undefined;

/** Wraps a node as a condition (frozen). */
export function conditionOf<V extends string, M extends boolean>(node: ConditionNode): Condition<V, M> {
  return Object.freeze({ node }) as unknown as Condition<V, M>;
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
export function and<V extends string, M extends boolean>(...conditions: Maybe<Condition<V, M>>[]): Condition<V, M> {
  const nodes = collect("and", conditions);
  if (nodes.length === 1) return conditionOf(nodes[0]!);
  return conditionOf(nodes.length === 0 ? ConditionNode.constant(true) : ConditionNode.and(nodes));
}

/** Any of the conditions. `null`/`undefined` arguments are skipped; `or()` of nothing is FALSE. */
export function or<V extends string, M extends boolean>(...conditions: Maybe<Condition<V, M>>[]): Condition<V, M> {
  const nodes = collect("or", conditions);
  if (nodes.length === 1) return conditionOf(nodes[0]!);
  return conditionOf(nodes.length === 0 ? ConditionNode.constant(false) : ConditionNode.or(nodes));
}

/** The negation of a condition. */
export function not<V extends string, M extends boolean>(condition: Condition<V, M>): Condition<V, M> {
  const [node] = collect("not", [condition]);
  if (node === undefined) throw new ValidationError("not(): a condition is required");
  return conditionOf(ConditionNode.not(node));
}
