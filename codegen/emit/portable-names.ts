/**
 * Portable names: the TypeScript side of a model is the same whichever backend generated it.
 * - Backend A folds unquoted identifiers to upper case; a name entirely in upper case is written in
 *   lower case on our side (the compiler maps it back), a name with any lower-case letter stays exact.
 * - A member name that cannot be a field name (`Total Revenue`, `name`) gets a camelCase field name
 *   and keeps its warehouse name in the declaration: `totalRevenue: Metric({ name: "Total Revenue" })`.
 * - Members that several logical tables of one view share (backend A's `CUSTOMER.NAME` and
 *   `SUPPLIER.NAME`) are declared qualified: `customerName: Dimension({ name: "customer.name" })`.
 */
import type { BackendType } from "../../runtime/config/index.js";
import { dialectOf, fieldNameProblem, MAX_NAME_LENGTH, type MemberMetadata } from "../../runtime/internal.js";
import { uniqueNames } from "./naming.js";

/** A warehouse name as our side spells it: a folded upper-case name (backend A) becomes lower case. */
export function portableName(backend: BackendType, name: string): string {
  return dialectOf(backend).codegen.portableName(name);
}

export interface MemberName {
  /** The TypeScript field name (object key, row key, DTO key). */
  readonly field: string;
  /** The name to declare with `{ name }`, or undefined when the field name is the warehouse name. */
  readonly declared: string | undefined;
}

/** `Total Revenue` → `totalRevenue`, `order_month` stays, `2024 kpis` → `m2024Kpis`, `name` → `nameField`. */
function fieldNameFrom(text: string): string {
  if (fieldNameProblem(text) === undefined) return text;
  const words = text.split(/[^A-Za-z0-9_]+/).filter((w) => w !== "");
  let camel = words
    .map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
    .join("");
  if (camel === "") camel = "member";
  if (/^[0-9]/.test(camel)) camel = `m${camel}`;
  // Leave room for the `Field` and uniqueness suffixes within SemanticView()'s length limit.
  camel = camel.slice(0, MAX_NAME_LENGTH - 16);
  return fieldNameProblem(camel) === undefined ? camel : `${camel}Field`;
}

/** Field and declared names of one view's members, in the given order, field names unique. */
export function memberNames(backend: BackendType, members: readonly MemberMetadata[]): MemberName[] {
  const portable = members.map((m) => portableName(backend, m.name));
  const counts = new Map<string, number>();
  for (const name of portable) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
  const planned = members.map((member, i) => {
    const name = portable[i]!;
    const shared = (counts.get(name.toLowerCase()) ?? 0) > 1 && member.table !== undefined;
    if (!shared) return { warehouse: name, candidate: fieldNameFrom(name) };
    const table = portableName(backend, member.table!);
    return { warehouse: `${table}.${name}`, candidate: fieldNameFrom(`${table} ${name}`.replace(/_/g, " ")) };
  });
  const fields = uniqueNames(planned.map((p) => p.candidate));
  return planned.map((p, i) => ({ field: fields[i]!, declared: p.warehouse === fields[i] ? undefined : p.warehouse }));
}
