import type { OrderingNode } from "../operation-node/ordering-node.js";

declare const ORDERING_TYPE: unique symbol;

/** One ordering (`Sales.revenue.desc()`), tied at the type level to its view and field name. */
export interface Ordering<V extends string = string, N extends string = string> {
  readonly node: OrderingNode;
  readonly [ORDERING_TYPE]: { readonly view: V; readonly name: N };
}

export interface OrderingOptions {
  /** Where NULLs sort. Default `"last"`, written out on every backend (their own defaults differ). */
  readonly nulls?: "first" | "last";
}

export function orderingOf<V extends string, N extends string>(node: OrderingNode): Ordering<V, N> {
  return Object.freeze({ node }) as unknown as Ordering<V, N>;
}

export function isOrdering(value: unknown): value is Ordering {
  if (typeof value !== "object" || value === null) return false;
  const node = (value as { node?: { kind?: unknown } }).node;
  return typeof node === "object" && node !== null && node.kind === "OrderingNode";
}
