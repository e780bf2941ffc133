import type { ConditionNode } from "./condition-node.js";
import type { FieldNode } from "./field-node.js";
import type { OrderingNode } from "./ordering-node.js";
import type { VariableNode, VariableValueNode } from "./variable-node.js";

/** The whole semantic query: what every dialect compiler is fed. Frozen; builders clone with changes. */
export interface SemanticQueryNode {
  readonly kind: "SemanticQueryNode";
  /** The view's declared name (what fields refer to), e.g. `sales` or `analytics.sales`. */
  readonly viewName: string;
  /**
   * The view's name in the warehouse (warehouse-name.ts syntax: dot-separated parts, a quoted part
   * exact): what the compilers send. The declared name unless the view was declared with `{ name }`.
   */
  readonly warehouseName: string;
  readonly dimensions: readonly FieldNode[];
  readonly metrics: readonly FieldNode[];
  readonly facts: readonly FieldNode[];
  /** Pre-aggregation filter over dimensions and facts. */
  readonly where: ConditionNode | undefined;
  readonly orderBy: readonly OrderingNode[];
  readonly limit: number | undefined;
  readonly offset: number | undefined;
  /** The variables the view declares (from its declaration; a required one must be given a value). */
  readonly declaredVariables: readonly VariableNode[];
  /** The values this query sets, in declaration order. */
  readonly variables: readonly VariableValueNode[];
}

export type SemanticQueryChanges = Partial<
  Omit<SemanticQueryNode, "kind" | "viewName" | "warehouseName" | "declaredVariables">
>;

/** Shared by every node whose list is empty (frozen, so sharing is safe). */
const EMPTY: readonly never[] = Object.freeze([]);

export const SemanticQueryNode = Object.freeze({
  /** `warehouseName`: the view's name in the warehouse (warehouse-name.ts syntax) when not `viewName`. */
  create(
    viewName: string,
    declaredVariables: readonly VariableNode[] = [],
    warehouseName: string = viewName,
  ): SemanticQueryNode {
    return Object.freeze({
      kind: "SemanticQueryNode",
      viewName,
      warehouseName,
      dimensions: EMPTY,
      metrics: EMPTY,
      facts: EMPTY,
      where: undefined,
      orderBy: EMPTY,
      limit: undefined,
      offset: undefined,
      declaredVariables: declaredVariables.length === 0 ? EMPTY : Object.freeze([...declaredVariables]),
      variables: EMPTY,
    });
  },
  /**
   * A copy with `changes`. Written out property by property (the order of `create`). A changed list
   * must be a fresh array nobody else holds: the node takes it and freezes it in place (every
   * builder call makes its list anew, so copying it again was one more array per call); unchanged
   * lists are shared, frozen already. Each builder call clones once, so this is most of what
   * building a query costs.
   */
  cloneWith(node: SemanticQueryNode, changes: SemanticQueryChanges): SemanticQueryNode {
    const list = <T>(changed: readonly T[] | undefined, kept: readonly T[]) =>
      changed === undefined ? kept : Object.freeze(changed);
    return Object.freeze({
      kind: "SemanticQueryNode",
      viewName: node.viewName,
      warehouseName: node.warehouseName,
      dimensions: list(changes.dimensions, node.dimensions),
      metrics: list(changes.metrics, node.metrics),
      facts: list(changes.facts, node.facts),
      where: "where" in changes ? changes.where : node.where,
      orderBy: list(changes.orderBy, node.orderBy),
      limit: "limit" in changes ? changes.limit : node.limit,
      offset: "offset" in changes ? changes.offset : node.offset,
      declaredVariables: node.declaredVariables,
      variables: list(changes.variables, node.variables),
    });
  },
  /** Selected fields in output-column order: dimensions first, then metrics, then facts. */
  selection(node: SemanticQueryNode): readonly FieldNode[] {
    return [...node.dimensions, ...node.metrics, ...node.facts];
  },
});
