/**
 * The conditions of repeated `where()` calls, kept as a persistent list so each call costs the size of
 * its own condition, not of everything before it: the builder used to copy the accumulated AND and
 * re-measure its shape on every call (chained `where()` grew quadratically, issue 25). The AND node
 * the compilers see is built once, when the query is first compiled or inspected.
 */
import { ConditionNode } from "../operation-node/condition-node.js";
import { conditionShape, conditionShapeLimitProblem } from "../operation-node/condition-shape.js";

export interface WhereChain {
  readonly previous: WhereChain | undefined;
  /** The condition of one `where()` call. */
  readonly condition: ConditionNode;
  /** Top-level conjuncts of every call so far. */
  readonly conjuncts: number;
  /** Deepest conjunct so far and the terms of all of them: the shape of the AND they make. */
  readonly conjunctDepth: number;
  readonly terms: number;
}

function conjunctsOf(node: ConditionNode): readonly ConditionNode[] {
  return node.kind === "AndConditionNode" ? node.conditions : [node];
}

/**
 * `chain` with `condition` ANDed on, or the reason the combined condition is too large. `condition`
 * must have passed `conditionShapeProblem` (its shape is then remembered).
 */
export function appendWhere(chain: WhereChain | undefined, condition: ConditionNode): WhereChain | string {
  const shape = conditionShape(condition)!;
  const own = conjunctsOf(condition);
  // An AND's conjuncts sit one level below it; anything else is itself the conjunct.
  const depth = condition.kind === "AndConditionNode" ? shape.depth - 1 : shape.depth;
  const next: WhereChain = {
    previous: chain,
    condition,
    conjuncts: (chain?.conjuncts ?? 0) + own.length,
    conjunctDepth: Math.max(chain?.conjunctDepth ?? 0, depth),
    terms: (chain?.terms ?? 0) + shape.terms,
  };
  if (chain === undefined) return next;
  const problem = conditionShapeLimitProblem({ depth: next.conjunctDepth + 1, terms: next.terms });
  return problem ?? next;
}

const built = new WeakMap<WhereChain, ConditionNode>();

/** The one condition the chain stands for: a single call's condition as given, several calls' flattened AND. */
export function whereCondition(chain: WhereChain): ConditionNode {
  if (chain.previous === undefined) return chain.condition;
  let node = built.get(chain);
  if (node === undefined) {
    const calls: ConditionNode[] = [];
    for (let link: WhereChain | undefined = chain; link !== undefined; link = link.previous) calls.push(link.condition);
    const conjuncts: ConditionNode[] = [];
    for (let i = calls.length - 1; i >= 0; i--) for (const c of conjunctsOf(calls[i]!)) conjuncts.push(c);
    node = ConditionNode.and(conjuncts);
    built.set(chain, node);
  }
  return node;
}
