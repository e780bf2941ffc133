import type { FieldNode } from "./field-node.js";

export type OrderDirection = "asc" | "desc";
export type NullsPlacement = "first" | "last";

/** One ORDER BY item over a selected field. */
export interface OrderingNode {
  readonly kind: "OrderingNode";
  readonly field: FieldNode;
  readonly direction: OrderDirection;
  /** Absent: the warehouse's default placement. */
  readonly nulls: NullsPlacement | undefined;
}

export const OrderingNode = Object.freeze({
  create(field: FieldNode, direction: OrderDirection, nulls?: NullsPlacement): OrderingNode {
    return Object.freeze({ kind: "OrderingNode", field, direction, nulls });
  },
});
