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
      dimensions: Object.freeze([]),
      metrics: Object.freeze([]),
      facts: Object.freeze([]),
      where: undefined,
      orderBy: Object.freeze([]),
      limit: undefined,
      offset: undefined,
      declaredVariables: Object.freeze([...declaredVariables]),
      variables: Object.freeze([]),
    });
  },
  cloneWith(node: SemanticQueryNode, changes: SemanticQueryChanges): SemanticQueryNode {
    const next = { ...node, ...changes };
    return Object.freeze({
      ...next,
      dimensions: Object.freeze([...next.dimensions]),
      metrics: Object.freeze([...next.metrics]),
      facts: Object.freeze([...next.facts]),
      orderBy: Object.freeze([...next.orderBy]),
      variables: Object.freeze([...next.variables]),
    });
  },
  /** Selected fields in output-column order: dimensions first, then metrics, then facts. */
  selection(node: SemanticQueryNode): readonly FieldNode[] {
    return [...node.dimensions, ...node.metrics, ...node.facts];
  },
});
