/**
 * Plain JSON values for an MCP answer's structured content, which the SDK serializes with
 * `JSON.stringify`: a bigint within ±(2^53−1) becomes a number and a larger one its exact digits as
 * a string, a Decimal its exact text, a Date its ISO text (the ISO day in the DATE fields of result
 * rows, as `toJson` writes them). Nothing is rounded (the text content carries the same values as
 * exact JSON numbers).
 */
import { Decimal } from "../values/decimal.js";
import { dayFieldsOf, dayTextOf } from "../values/day-columns.js";

export function jsonSafe(value: unknown, days?: ReadonlySet<string>): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value !== "object" || value === null) return value;
  if (Decimal.isDecimal(value)) return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const rowDays = dayFieldsOf(value);
    return value.map((item) => jsonSafe(item, rowDays));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[key] = (days?.has(key) === true ? dayTextOf(item) : undefined) ?? jsonSafe(item);
  }
  return out;
}
