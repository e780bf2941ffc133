/**
 * The exact conversions of `validate: "coerce"`. A converter either returns the converted value or
 * throws `CoercionFailure` when the conversion would lose information (or the value is unusable).
 * Rules (column kind → model type):
 * - bigint → integer/number: only within the safe-integer range (±(2^53-1)). `strict` applies this
 *   one value by value too (`bigintToSafeNumber`): a `number` property never receives a `bigint`.
 * - integer/float number → bigint: only safe integers.
 * - Decimal → integer/bigint: only with a zero fraction (and, for integer, within the safe range);
 *   Decimal → number: only when the double's shortest text equals the Decimal (`12.5` yes, `0.1000000000000000055` no).
 * - number → Decimal: via the number's shortest round-trip text (`0.1` → `0.1`); bigint → Decimal exactly.
 * - string → integer/number/bigint/Decimal: plain decimal text under the same rules.
 * - anything scalar → string: its exact text (`Decimal.toString()`, ISO text for timestamps, `YYYY-MM-DD`
 *   for a DATE column, as every JSON writer prints it).
 * - string → Date: ISO `YYYY-MM-DD` (UTC midnight) or an ISO date-time with `Z` or an offset and at most ms,
 *   on a real calendar day. A model declared `format: "date"` (calendar days) takes a date-time only when it
 *   is exactly midnight UTC: any other time of day would be lost.
 * - boolean only from boolean.
 */
import { KIND_TYPINGS } from "./kind-typings.js";
import type { ValueKind } from "../driver/query-result.js";
import { Decimal } from "../values/decimal.js";
import { isUtcMidnight } from "../values/iso-day.js";
import type { ModelType } from "./model-type.js";

export class CoercionFailure extends Error {
  override name = "CoercionFailure";
}

export type Converter = (value: unknown) => unknown;

const INTEGER_TEXT = /^[+-]?\d+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function fail(message: string): never {
  throw new CoercionFailure(message);
}

/** A bigint within ±(2^53−1) as a number; else `CoercionFailure` (never a rounded number). */
export function bigintToSafeNumber(v: bigint): number {
  // Number() is exact within ±(2^53−1) and rounds anything beyond to at least 2^53 in magnitude,
  // which is not a safe integer: one conversion and a float test instead of two bigint comparisons.
  const n = Number(v);
  if (!Number.isSafeInteger(n)) fail("outside the safe-integer range of number");
  return n;
}

function decimalOf(value: unknown): Decimal {
  if (Decimal.isDecimal(value)) return value;
  if (typeof value === "string") {
    try {
      return Decimal.parse(value);
    } catch {
      fail("not a decimal number");
    }
  }
  if (typeof value === "bigint") return new Decimal(value, 0);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail("not a finite number");
    return Decimal.from(value);
  }
  return fail("not a number");
}

function toInteger(value: unknown): number {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) fail("has a fraction");
    return value;
  }
  if (typeof value === "bigint") return bigintToSafeNumber(value);
  if (typeof value === "string" && !INTEGER_TEXT.test(value.trim())) fail("not integer text");
  const d = decimalOf(value);
  if (!d.isInteger()) fail("has a fraction");
  return bigintToSafeNumber(d.toBigInt());
}

function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return bigintToSafeNumber(value);
  const d = decimalOf(value);
  const n = Number(d.toString());
  if (!Number.isFinite(n) || !Decimal.from(n).equals(d)) fail("has no exact number representation");
  return n;
}

function toBigInt(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value))
      fail(Number.isInteger(value) ? "outside the safe-integer range" : "has a fraction");
    return BigInt(value);
  }
  if (typeof value === "string" && !INTEGER_TEXT.test(value.trim())) fail("not integer text");
  const d = decimalOf(value);
  if (!d.isInteger()) fail("has a fraction");
  return d.toBigInt();
}

function toDecimal(value: unknown): Decimal {
  return decimalOf(value);
}

/** A DATE column's value as its calendar day, `YYYY-MM-DD` (lib delivers DATEs at midnight UTC). */
function toDayText(value: unknown): string {
  return value instanceof Date ? toText(value).slice(0, 10) : toText(value);
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (Decimal.isDecimal(value)) return value.toString();
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) fail("invalid date");
    return value.toISOString();
  }
  return fail("has no exact text form");
}

/** True when the text starts with a day the calendar has (`Date` would roll 2024-02-30 over to March 1). */
function isCalendarDay(text: string): boolean {
  const [year, month, day] = [text.slice(0, 4), text.slice(5, 7), text.slice(8, 10)].map(Number) as [
    number,
    number,
    number,
  ];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string" && (ISO_DATE.test(value) || ISO_DATE_TIME.test(value)) && isCalendarDay(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return fail("not an ISO date or date-time with a zone");
}

/** For a `format: "date"` model: a calendar day, i.e. a Date at midnight UTC. */
function toCalendarDate(value: unknown): Date {
  const d = toDate(value);
  if (!isUtcMidnight(d)) fail('has a time of day, but the model\'s format is "date" (a calendar day)');
  return d;
}

const identity: Converter = (v) => v;

/**
 * Strict agreement beyond each kind's own schema (`KIND_TYPINGS`, the one codegen emits): integer
 * and number models also take 64-bit integers value by value, a number model any integer, and a
 * non-lib schema (arrays, objects, ...) columns passed through as `other`. `unknown` takes anything.
 */
const ALSO_STRICT: Record<ModelType, readonly ValueKind[]> = {
  integer: ["bigint"],
  number: ["integer", "bigint"],
  bigint: [],
  decimal: [],
  string: [],
  boolean: [],
  date: [],
  unknown: [],
  other: ["other"],
};

/** Extra column kinds `coerce` can convert from, per model type. */
const COERCIBLE: Record<ModelType, readonly ValueKind[]> = {
  integer: ["decimal", "float", "string"],
  number: ["decimal", "string"],
  bigint: ["integer", "float", "decimal", "string"],
  decimal: ["integer", "bigint", "float", "string"],
  string: ["integer", "bigint", "decimal", "float", "boolean", "date", "timestamp"],
  boolean: [],
  date: ["string"],
  unknown: [],
  other: [],
};

export function agreesStrictly(model: ModelType, kind: ValueKind): boolean {
  return model === "unknown" || KIND_TYPINGS[kind].model === model || ALSO_STRICT[model].includes(kind);
}

/**
 * The converter `strict` applies to values of a column that agrees with the model: a 64-bit column
 * under a `number`/`integer` property agrees value by value (a bigint within ±(2^53−1) becomes a
 * number, a larger one fails), so the property's TypeScript type `number` is always true.
 */
export function strictConversion(model: ModelType, kind: ValueKind): Converter | undefined {
  return (model === "integer" || model === "number") && kind === "bigint" ? toSafeNumber : undefined;
}

function toSafeNumber(value: unknown): number {
  return typeof value === "bigint" ? bigintToSafeNumber(value) : toNumber(value);
}

/**
 * The converter `coerce` uses for this pair, or undefined when no exact conversion exists. `format` is
 * the model property's JSON Schema format (`"date"`: calendar days).
 */
export function coercion(model: ModelType, kind: ValueKind, format?: string): Converter | undefined {
  if (model === "integer" && kind === "bigint") return toInteger;
  if (model === "string" && kind === "date") return toDayText;
  if (model === "number" && kind === "bigint") return toSafeNumber;
  if (agreesStrictly(model, kind)) return identity;
  if (!COERCIBLE[model].includes(kind)) return undefined;
  switch (model) {
    case "integer":
      return toInteger;
    case "number":
      return toNumber;
    case "bigint":
      return toBigInt;
    case "decimal":
      return toDecimal;
    case "string":
      return toText;
    case "date":
      return format === "date" ? toCalendarDate : toDate;
    default:
      return undefined;
  }
}
