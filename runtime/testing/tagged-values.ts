/**
 * Exact values in a fixture module (which imports nothing, so it cannot construct a `Decimal`):
 * JSON values as they are, and the kinds JSON cannot hold as one-key objects: `{ $bigint: "12" }`,
 * `{ $decimal: "19.90" }`, `{ $date: "2024-01-31T12:00:00.000Z" }` (a DATE column's value as its day,
 * `{ $date: "2024-01-31" }`, as every JSON writer of lib prints it); a non-finite float as
 * `{ $number: "NaN" }`. Decoding gives back the value kind the driver produced.
 */
import { Decimal } from "../values/decimal.js";
import { isGenuineDate } from "../values/genuine.js";
import { isoDay } from "../values/iso-day.js";

/** A value as the fixture module stores it. */
export type TaggedValue =
  | string
  | number
  | boolean
  | null
  | { readonly $bigint: string }
  | { readonly $decimal: string }
  | { readonly $date: string }
  | { readonly $number: string }
  | { readonly $other: string };

/** `kind`: the column's value kind (`ColumnInfo.kind`), when known: a `"date"` value is written as its day. */
export function encodeValue(value: unknown, kind?: string): TaggedValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0)
        ? value
        : { $number: Object.is(value, -0) ? "-0" : String(value) };
    case "bigint":
      return { $bigint: value.toString() };
    default:
      if (Decimal.isDecimal(value)) return { $decimal: value.toString() };
      if (isGenuineDate(value)) {
        const text = value.toISOString();
        return { $date: kind === "date" && text.endsWith("T00:00:00.000Z") ? isoDay(value) : text };
      }
      // Lists, structs, blobs: kept as their JSON text, compared as text.
      return { $other: JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) };
  }
}

export function decodeValue(value: TaggedValue): unknown {
  if (value === null || typeof value !== "object") return value;
  if ("$bigint" in value) return BigInt(value.$bigint);
  if ("$decimal" in value) return Decimal.parse(value.$decimal);
  if ("$date" in value) return new Date(value.$date);
  if ("$number" in value) return Number(value.$number);
  return value;
}

/** How a value reads in a report: its kind and exact text (`bigint 12`, `Decimal 19.90`, `NULL`). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "bigint") return `bigint ${value}`;
  if (typeof value === "number") return `number ${Object.is(value, -0) ? "-0" : String(value)}`;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean ${value}`;
  if (Decimal.isDecimal(value)) return `Decimal ${value.toString()}`;
  if (isGenuineDate(value)) return `Date ${value.toISOString()}`;
  const tagged = encodeValue(value);
  return typeof tagged === "object" && tagged !== null && "$other" in tagged ? tagged.$other : String(value);
}

/** Same value and same kind: Decimals compare by value (19.9 equals 19.90), dates by instant, floats exactly. */
export function sameValue(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined;
  if (Decimal.isDecimal(expected)) return Decimal.isDecimal(actual) && expected.equals(actual);
  if (isGenuineDate(expected)) return isGenuineDate(actual) && expected.getTime() === actual.getTime();
  if (typeof expected === "object") {
    return describeValue(actual) === (expected as { $other?: string }).$other;
  }
  return typeof expected === typeof actual && Object.is(expected, actual);
}
