/**
 * Limits on a condition's shape. A condition nested thousands deep or an `and()` of 100k terms
 * used to end in a bare `RangeError` (a recursion ran out of stack) somewhere in validation or
 * compilation; no warehouse takes such a predicate anyway (DuckDB's expression depth is 1000). The
 * shape is measured without recursion and remembered per node, so building a condition step by step
 * costs each node once.
 */
import type { ConditionNode } from "./condition-node.js";

/** Nesting of and/or/not. */
export const MAX_CONDITION_DEPTH = 100;
/** Comparisons, IN lists, LIKEs, null checks and constants in one condition. */
export const MAX_CONDITION_TERMS = 10_000;

export interface ConditionShape {
  readonly depth: number;
  readonly terms: number;
}

const shapes = new WeakMap<ConditionNode, ConditionShape>();

function childrenOf(node: ConditionNode): readonly ConditionNode[] {
  switch (node.kind) {
    case "AndConditionNode":
    case "OrConditionNode":
      return node.conditions;
    case "NotConditionNode":
      return [node.condition];
    default:
      return [];
  }
}

/** The shape of every comparison, IN list, LIKE, null check and constant (shared: nothing to remember per node). */
const LEAF: ConditionShape = Object.freeze({ depth: 0, terms: 1 });

const isLeaf = (node: ConditionNode): boolean =>
  node.kind !== "AndConditionNode" && node.kind !== "OrConditionNode" && node.kind !== "NotConditionNode";

/** Depth and term count of `node`, or undefined once either is over its limit (measured iteratively). */
export function conditionShape(root: ConditionNode): ConditionShape | undefined {
  // The usual where(View.field.op(value)): no walk, no stack.
  if (isLeaf(root)) return LEAF;
  const stack: { node: ConditionNode; level: number; expanded: boolean }[] = [
    { node: root, level: 0, expanded: false },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (shapes.has(top.node)) {
      stack.pop();
      continue;
    }
    const children = childrenOf(top.node);
    if (!top.expanded && children.length > 0) {
      // A path longer than the limit is over it, whatever lies below.
      if (top.level >= MAX_CONDITION_DEPTH) return undefined;
      top.expanded = true;
      for (const child of children) {
        if (!isLeaf(child) && !shapes.has(child)) stack.push({ node: child, level: top.level + 1, expanded: false });
      }
      continue;
    }
    let depth = 0;
    let terms = children.length === 0 ? 1 : 0;
    for (const child of children) {
      const shape = isLeaf(child) ? LEAF : shapes.get(child)!;
      depth = Math.max(depth, shape.depth + 1);
      terms += shape.terms;
    }
    if (depth > MAX_CONDITION_DEPTH || terms > MAX_CONDITION_TERMS) return undefined;
    shapes.set(top.node, { depth, terms });
    stack.pop();
  }
  return shapes.get(root);
}

/** Why a condition of this shape is too deep or too large to compile, or undefined when it is not. */
export function conditionShapeLimitProblem(shape: ConditionShape): string | undefined {
  if (shape.depth <= MAX_CONDITION_DEPTH && shape.terms <= MAX_CONDITION_TERMS) return undefined;
  return (
    `the condition is too large: at most ${MAX_CONDITION_DEPTH} levels of and/or/not and ` +
    `${MAX_CONDITION_TERMS} terms (use in([...]) for many values of one field)`
  );
}

/** Why `node` is too deep or too large to compile, or undefined when it is not. */
export function conditionShapeProblem(node: ConditionNode): string | undefined {
  return conditionShapeLimitProblem(conditionShape(node) ?? { depth: Infinity, terms: Infinity });
}
