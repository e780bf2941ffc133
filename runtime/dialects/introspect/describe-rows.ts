/**
 * Folds `DESCRIBE SEMANTIC VIEW` rows (`object_kind, object_name, parent_entity, property,
 * property_value`) into members. Backend C (extension and built-in engine) and backend A share the
 * shape; they differ in how view-level rows are marked (`SEMANTIC_VIEW`/`''` vs NULL).
 */
import { cell, text, type MemberKind, type MemberMetadata } from "./metadata.js";

const MEMBER_KINDS: Readonly<Record<string, MemberKind>> = {
  DIMENSION: "dimension",
  METRIC: "metric",
  DERIVED_METRIC: "metric",
  FACT: "fact",
};

export interface DescribedView {
  readonly comment?: string | undefined;
  /** Public members in definition order; PRIVATE ones cannot be queried and are left out. */
  readonly members: readonly MemberMetadata[];
}

export function foldDescribeRows(rows: readonly Record<string, unknown>[]): DescribedView {
  let comment: string | undefined;
  const order: string[] = [];
  const members = new Map<string, { kind: MemberKind; name: string; table: string; props: Map<string, string> }>();
  for (const row of rows) {
    const objectKind = text(cell(row, "object_kind")).toUpperCase();
    const property = text(cell(row, "property")).toUpperCase();
    const value = text(cell(row, "property_value"));
    if (objectKind === "" || objectKind === "SEMANTIC_VIEW") {
      if (property === "COMMENT" && value !== "") comment = value;
      continue;
    }
    const kind = MEMBER_KINDS[objectKind];
    if (kind === undefined) continue;
    const name = text(cell(row, "object_name"));
    // Backend A lets logical tables share a member name (`CUSTOMER.NAME`, `SUPPLIER.NAME`): keep them apart.
    const table = text(cell(row, "parent_entity"));
    const key = `${kind}\u0000${table}\u0000${name}`;
    let member = members.get(key);
    if (!member) {
      member = { kind, name, table, props: new Map() };
      members.set(key, member);
      order.push(key);
    }
    member.props.set(property, value);
  }
  const result: MemberMetadata[] = [];
  for (const key of order) {
    const { kind, name, table, props } = members.get(key)!;
    if ((props.get("ACCESS_MODIFIER") ?? "").toUpperCase() === "PRIVATE") continue;
    result.push({
      name,
      kind,
      table: nonEmpty(table),
      type: props.get("DATA_TYPE") ?? "",
      expression: nonEmpty(props.get("EXPRESSION")),
      comment: nonEmpty(props.get("COMMENT")),
    });
  }
  return { comment, members: result };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
