/**
 * Plain JSON values for an MCP answer's structured content, which the SDK serializes with
 * `JSON.stringify`: a bigint within ±(2^53−1) becomes a number and a larger one its exact digits as
 * a string, a Decimal its exact text, a Date its ISO text. Nothing is rounded (the text content
 * carries the same values as exact JSON numbers).
 */
import { Decimal } from "../values/decimal.js";

export function jsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value !== "object" || value === null) return value;
  if (Decimal.isDecimal(value)) return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = jsonSafe(item);
  return out;
}
