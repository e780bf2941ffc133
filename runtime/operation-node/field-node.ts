/** A reference to one declared member of a semantic view. Frozen; identifiers come only from here. */
export type FieldKind = "metric" | "dimension" | "fact";

export interface FieldNode {
  readonly kind: "FieldNode";
  /** The view's declared name, e.g. `sales` or `analytics.sales`. */
  readonly viewName: string;
  /** The member's field name, which is also the output column's alias. */
  readonly name: string;
  /** The member's name in the warehouse (the field name unless declared with `{ name }`); compilers quote it per dialect. */
  readonly warehouseName: string;
  readonly fieldKind: FieldKind;
}

export const FieldNode = Object.freeze({
  is(node: { readonly kind: string }): node is FieldNode {
    return node.kind === "FieldNode";
  },
  create(viewName: string, name: string, fieldKind: FieldKind, warehouseName: string = name): FieldNode {
    return Object.freeze({ kind: "FieldNode", viewName, name, warehouseName, fieldKind });
  },
});
