/**
 * Lossless JSON text for result rows, compiled once per result from its columns: each value is
 * written by its column's kind (bigint and Decimal as exact JSON numbers, timestamps as ISO date-time
 * text, DATE values as the ISO day alone, as the row schema's `format: "date"` says), which is what
 * `toJson` writes, several times faster for the millions of rows a stream may carry.
 */
import type { ColumnInfo, ValueKind } from "../driver/query-result.js";
import { Decimal } from "../values/decimal.js";
import { isoDay } from "../values/iso-day.js";
import { toJson } from "../values/json.js";

/** Writes one non-null value as JSON text. */
export type ValueWriter = (value: unknown) => string;

const general: ValueWriter = (v) => toJson(v);

const WRITERS: Partial<Record<ValueKind, ValueWriter>> = {
  string: (v) => (typeof v === "string" ? JSON.stringify(v) : general(v)),
  integer: (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : general(v)),
  float: (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : general(v)),
  bigint: (v) => (typeof v === "bigint" ? v.toString() : general(v)),
  decimal: (v) => (Decimal.isDecimal(v) ? v.toString() : general(v)),
  boolean: (v) => (v === true ? "true" : v === false ? "false" : general(v)),
  date: (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? `"${isoDay(v)}"` : general(v)),
  timestamp: (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? `"${v.toISOString()}"` : general(v)),
};

/** How a value of a column of `kind` is written (anything unexpected goes through `toJson`). */
export function valueWriterFor(kind: ValueKind): ValueWriter {
  return WRITERS[kind] ?? general;
}

/** A function writing one row object (keys in column order) as a JSON object. */
export function rowJsonWriter(columns: readonly ColumnInfo[]): (row: Readonly<Record<string, unknown>>) => string {
  const parts = columns.map((c, i) => ({
    name: c.name,
    prefix: `${i === 0 ? "{" : ","}${JSON.stringify(c.name)}:`,
    write: valueWriterFor(c.kind),
  }));
  return (row) => {
    let text = "";
    for (const { name, prefix, write } of parts) {
      const value = row[name];
      text += prefix + (value === null || value === undefined ? "null" : write(value));
    }
    return parts.length === 0 ? "{}" : `${text}}`;
  };
}
