/**
 * A request value turned into the value a member's declared type takes, exactly or not at all: a JSON
 * string becomes a `bigint`, `Decimal` or `Date` by the member's type (query strings carry only
 * strings, and JSON numbers cannot carry 64-bit integers or long decimals); a JSON number is accepted
 * where it is exact. Anything of the wrong kind is refused with the reason, never coerced.
 */
import type { FilterValue } from "../operation-node/filter-value.js";
import { MAX_DECIMAL_PRECISION } from "../query-compiler/decimal-type.js";
import { Decimal } from "../values/decimal.js";
import type { MemberType } from "./member-type.js";
import { ExactNumber } from "./request-json.js";

export type ParsedValue =
  { readonly ok: true; readonly value: FilterValue } | { readonly ok: false; readonly problem: string };

const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const FLOAT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/i;

const ok = (value: FilterValue): ParsedValue => ({ ok: true, value });
const no = (problem: string): ParsedValue => ({ ok: false, problem });

function kindOf(value: unknown): string {
  if (value instanceof ExactNumber) return "a number";
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function wrongKind(type: MemberType, value: unknown, expected: string): ParsedValue {
  return no(`expected ${expected} for a ${type} member, got ${kindOf(value)}`);
}

/** Text of a number or numeric string, or undefined for other kinds. */
function numericText(value: unknown): string | undefined {
  if (value instanceof ExactNumber) return value.text;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  return typeof value === "string" ? value.trim() : undefined;
}

/**
 * A `date` member (a DATE column: JSON Schema's `format: "date"`) takes a calendar date only: a
 * date-time would compare the day with an instant inside it. A `timestamp` member takes an ISO
 * date-time, or a date meaning its first instant (UTC).
 */
function parseDate(text: string, type: "date" | "timestamp"): ParsedValue {
  const date = DATE.exec(text);
  const time = date === null ? DATE_TIME.exec(text) : null;
  const parts = date ?? time;
  if (type === "date" && date === null) {
    return no(
      time === null
        ? `${JSON.stringify(text)} is not an ISO 8601 date (2024-02-29)`
        : `${JSON.stringify(text)} is a date-time, but this member is a date: send the day alone (${text.slice(0, 10)})`,
    );
  }
  if (parts === null) {
    return no(`${JSON.stringify(text)} is not an ISO 8601 date-time (2024-02-29T12:00:00Z) or date (2024-02-29)`);
  }
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts.slice(1, 7).map((p) => Number(p ?? 0));
  const fraction = time?.[7] ?? "";
  const zone = time?.[8]?.toUpperCase();
  // A timestamp without a zone is a UTC wall clock, as lib reads TIMESTAMP_NTZ columns.
  const offsetMinutes =
    zone === undefined || zone === "Z"
      ? 0
      : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const ms = Number(fraction.padEnd(3, "0").slice(0, 3));
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const check = new Date(0);
  check.setUTCFullYear(year!, month! - 1, day!);
  check.setUTCHours(hour, minute, second, ms);
  const utc = check.getTime();
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return no(`${JSON.stringify(text)} is not a calendar date or time`);
  }
  if (fraction.length > 3 && /[1-9]/.test(fraction.slice(3))) {
    return no(`${JSON.stringify(text)} has digits below the millisecond, which a Date cannot hold`);
  }
  return ok(new Date(utc - offsetMinutes * 60_000));
}

function parseInteger(value: unknown, type: "integer" | "bigint"): ParsedValue {
  const text = numericText(value);
  if (text === undefined) return wrongKind(type, value, "an integer (a number, or a string of digits)");
  if (!INTEGER.test(text)) {
    return no(
      `${JSON.stringify(text)} is not an integer${FLOAT.test(text) ? " (write integers as plain digits, without a fraction or exponent)" : ""}`,
    );
  }
  const big = BigInt(text);
  if (type === "bigint") return ok(big);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    return no(`${text} is outside the range of this member's integers (±(2^53−1))`);
  }
  return ok(Number(big));
}

/** A numeric string that is not written as JSON writes numbers (`.5`, `1,5`, `+2`, `0x10`). */
function notANumber(text: string): ParsedValue {
  return no(`${JSON.stringify(text)} is not a number as JSON writes them (12.50, -3, 0.5, 1e6)`);
}

/** The value for a member of `type`; `null` is handled by the caller (it means IS NULL). */
export function parseMemberValue(type: MemberType, value: unknown): ParsedValue {
  switch (type) {
    case "string":
      return typeof value === "string" ? ok(value) : wrongKind(type, value, "a string");
    case "integer":
    case "bigint":
      return parseInteger(value, type);
    case "number": {
      const text = numericText(value);
      if (text === undefined) return wrongKind(type, value, "a number");
      if (!FLOAT.test(text)) return notANumber(text);
      const number = Number(text);
      if (!Number.isFinite(number)) return no(`${text} is outside the range of a double-precision number`);
      return ok(number === 0 ? 0 : number); // -0 is 0: the warehouse compares them equal
    }
    case "decimal": {
      const text = numericText(value);
      if (text === undefined) return wrongKind(type, value, "a decimal number (a number or a string of digits)");
      if (!FLOAT.test(text)) return notANumber(text);
      try {
        const decimal = Decimal.parse(text);
        // Every warehouse holds at most 38 digits; refused here, the problem names the value's path.
        if (decimal.precision > MAX_DECIMAL_PRECISION) {
          return no(
            `${text} has ${decimal.precision} digits; a decimal holds at most ${MAX_DECIMAL_PRECISION} (DECIMAL(38, s) on every backend)`,
          );
        }
        return ok(decimal);
      } catch (error) {
        return no(error instanceof Error ? error.message : String(error));
      }
    }
    case "boolean":
      if (typeof value === "boolean") return ok(value);
      if (value === "true" || value === "false") return ok(value === "true");
      return wrongKind(type, value, "true or false");
    case "date":
      return typeof value === "string"
        ? parseDate(value.trim(), type)
        : wrongKind(type, value, "an ISO 8601 date string (2024-02-29)");
    case "timestamp":
      return typeof value === "string"
        ? parseDate(value.trim(), type)
        : wrongKind(type, value, "an ISO 8601 date-time string (2024-02-29T12:00:00Z)");
    case "unknown":
      if (typeof value === "string" || typeof value === "boolean") return ok(value);
      if (typeof value === "number" && Number.isFinite(value)) return ok(value);
      if (value instanceof ExactNumber)
        return no(`${value.text} cannot be held exactly as a number; send it as a string`);
      return wrongKind(type, value, "a string, number or boolean");
  }
}
