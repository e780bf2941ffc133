/**
 * Result rows remember which of their fields hold calendar days (DATE columns, or an `into()` model's
 * `DateType({ format: "date" })` properties), so writers that see only the rows — `toJson`, the MCP
 * answers — write those values as the ISO day (`"2024-02-29"`, JSON Schema's `format: "date"`), as the
 * HTTP JSON and NDJSON answers do from the column kinds; other Dates stay ISO date-times.
 *
 * It is one non-enumerable property on the array of rows, set only when there is such a field: nothing
 * per value (a Date subclass per value cost 1 µs each on large results). A copy of the array (`slice`,
 * `map`, spread) is a plain array again, whose Dates are written as instants.
 */
import { isoDay } from "./iso-day.js";

const DAY_FIELDS: unique symbol = Symbol("lib.dayFields");

type Marked = { [DAY_FIELDS]?: ReadonlySet<string> };

/** Marks `rows` as having calendar days in `fields` (nothing when there is none); returns `rows`. */
export function withDayFields<T extends unknown[]>(rows: T, fields: readonly string[]): T {
  if (fields.length > 0) {
    Object.defineProperty(rows, DAY_FIELDS, { value: new Set(fields), enumerable: false, configurable: true });
  }
  return rows;
}

/** The calendar-day fields of an array of rows marked by `withDayFields`, if it is one. */
export function dayFieldsOf(array: readonly unknown[]): ReadonlySet<string> | undefined {
  return (array as Marked)[DAY_FIELDS];
}

/** The names of the DATE columns among `columns`. */
export function dateColumnNames(columns: readonly { readonly name: string; readonly kind: string }[]): string[] {
  const names: string[] = [];
  for (const c of columns) if (c.kind === "date") names.push(c.name);
  return names;
}

/** `"2024-02-29"` for a valid Date in a calendar-day field, else undefined (written as usual). */
export function dayTextOf(value: unknown): string | undefined {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? isoDay(value) : undefined;
}
