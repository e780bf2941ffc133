/**
 * Builder calls that were made before give back the node they made: `metrics()`, `dimensions()`,
 * `facts()` and `orderBy()` with the same arguments on the same node return the same frozen node, and
 * every `View.query()` of a declared view starts from one node. An application that builds its query
 * per request (`Sales.query().metrics(...).dimensions(...)`, as the example service does) then hands the
 * executor the very node it compiled before (its per-node compile cache answers, no shape key is
 * computed) and allocates no node for the unchanged part of the query.
 *
 * The arguments a node was derived with are remembered with it, and equal arguments (the same frozen
 * field objects, orderings of the same field node, direction and nulls) derive the same node: every
 * check a builder call makes depends only on the node, the view and those arguments, so a derivation
 * that passed once passes again. Bounded: at most {@link MAX_DERIVED} per node (the oldest goes first),
 * kept in a WeakMap keyed by the node, so they go with it.
 */
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import type { VariableNode } from "../operation-node/variable-node.js";
import { isField } from "../view/field.js";
import type { DeclaredView } from "./declared-view.js";
import { isOrdering } from "./ordering.js";

/** Derived nodes kept per node and builder method. */
export const MAX_DERIVED = 8;

interface Derived {
  readonly method: string;
  /** The arguments, reduced to what decides the derived node (see {@link derivedNode}). */
  readonly keys: readonly unknown[];
  readonly node: SemanticQueryNode;
}

const derivedByNode = new WeakMap<SemanticQueryNode, Derived[]>();

function sameKeys(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The node `method` derived from `parent` with arguments reduced to `keys` before, or undefined.
 * `keys` must hold everything of the arguments that the derived node or the call's checks read.
 */
export function derivedNode(
  parent: SemanticQueryNode,
  method: string,
  keys: readonly unknown[],
): SemanticQueryNode | undefined {
  const derived = derivedByNode.get(parent);
  if (derived === undefined) return undefined;
  for (let i = 0; i < derived.length; i++) {
    const d = derived[i]!;
    if (d.method === method && sameKeys(d.keys, keys)) return d.node;
  }
  return undefined;
}

/** Remembers that `method` with `keys` derived `node` from `parent` (at most MAX_DERIVED per method). */
export function rememberDerived(
  parent: SemanticQueryNode,
  method: string,
  keys: readonly unknown[],
  node: SemanticQueryNode,
): void {
  let derived = derivedByNode.get(parent);
  if (derived === undefined) derivedByNode.set(parent, (derived = []));
  let kept = 0;
  for (let i = 0; i < derived.length; i++) if (derived[i]!.method === method) kept++;
  if (kept >= MAX_DERIVED)
    derived.splice(
      derived.findIndex((d) => d.method === method),
      1,
    );
  derived.push({ method, keys, node });
}

/** @internal Tests: how many derived nodes `node` keeps. */
export function derivedCount(node: SemanticQueryNode): number {
  return derivedByNode.get(node)?.length ?? 0;
}

/**
 * What decides the node `orderBy(...orderings)` derives: each ordering's field node, direction and
 * nulls (a field stands for its ascending ordering); undefined when an argument is neither (it throws).
 */
export function orderingKeys(orderings: readonly unknown[]): unknown[] | undefined {
  const keys: unknown[] = [];
  for (let i = 0; i < orderings.length; i++) {
    const o = orderings[i];
    if (isOrdering(o)) keys.push(o.node.field, o.node.direction, o.node.nulls);
    else if (isField(o)) keys.push(o.node, "asc", undefined);
    else return undefined;
  }
  return keys;
}

/** The empty query's node of each declared view (`View.query()`), shared by its queries. */
const rootNodes = new WeakMap<DeclaredView, SemanticQueryNode>();

/** The node every `View.query()` of `view` starts from (made once per view and variable list). */
export function rootNode(viewName: string, variables: readonly VariableNode[], view: DeclaredView): SemanticQueryNode {
  const known = rootNodes.get(view);
  if (known !== undefined && known.viewName === viewName && sameKeys(known.declaredVariables, variables)) return known;
  const node = SemanticQueryNode.create(viewName, variables, view.warehouseName);
  rootNodes.set(view, node);
  return node;
}
