/**
 * Backend C's filter values as DuckDB SQL literals (the forms: duckdb-query-compiler.ts's module
 * comment), shared by the compiler and its value templates (duckdb-value-template.ts).
 */
import { ValidationError } from "../../errors.js";
import { Decimal } from "../../values/decimal.js";
import { decimalProblem } from "../../query-compiler/decimal-type.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { isGenuineDate } from "../../values/genuine.js";
import { isUtcMidnight } from "../../values/iso-day.js";
import { INT128, inexactNumberProblem, integerProblem } from "../../values/integer-ranges.js";

/** Why backend C cannot write `value` exactly (beyond the checks every backend shares), or undefined. */
export function duckdbValueProblem(value: FilterValue): string | undefined {
  if (typeof value === "bigint") return integerProblem(value, INT128, "DuckDB");
  if (Decimal.isDecimal(value)) return decimalProblem(value, "DuckDB");
  return undefined;
}

/** A filter value as a DuckDB SQL literal. */
export function duckdbLiteral(value: unknown): string {
  switch (typeof value) {
    case "string":
      return stringLiteral(value);
    case "number": {
      const problem = inexactNumberProblem(value);
      if (problem !== undefined) throw new ValidationError(`Cannot write ${value} as a SQL literal: ${problem}`);
      return Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21
        ? BigInt(value).toString()
        : String(value);
    }
    case "bigint": {
      const problem = integerProblem(value, INT128, "DuckDB");
      if (problem !== undefined) throw new ValidationError(problem);
      return value.toString();
    }
    case "boolean":
      return value ? "TRUE" : "FALSE";
    case "object":
      if (isGenuineDate(value)) return dateLiteral(value);
      if (Decimal.isDecimal(value)) {
        const problem = decimalProblem(value, "DuckDB"); // beyond 38 digits DuckDB would read the literal as a DOUBLE
        if (problem !== undefined) throw new ValidationError(problem);
        return value.toString();
      }
      break;
  }
  throw new ValidationError(`Cannot write ${Object.prototype.toString.call(value)} as a SQL literal`);
}

/** `'s'` with its quotes doubled (no new string for the usual text without one). */
const quoted = (s: string): string => `'${s.includes("'") ? s.replaceAll("'", "''") : s}'`;

function stringLiteral(value: string): string {
  if (!value.includes("\0")) return quoted(value);
  return `(${value.split("\0").map(quoted).join(" || chr(0) || ")})`;
}

/**
 * `DATE 'YYYY-MM-DD'` for a calendar day (how a DATE member's values arrive), else `TIMESTAMP '…'`. Both
 * compare alike with every temporal member: DuckDB reads a DATE as its midnight against a TIMESTAMP,
 * and casts either to TIMESTAMPTZ in the session's time zone.
 */
function dateLiteral(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new ValidationError("Cannot write an invalid Date as a SQL literal");
  const iso = date.toISOString();
  if (!/^\d{4}-/.test(iso)) throw new ValidationError(`Date ${iso} is outside the years 0000-9999`);
  if (isUtcMidnight(date)) return `DATE '${iso.slice(0, 10)}'`;
  return `TIMESTAMP '${iso.slice(0, 10)} ${iso.slice(11, 23)}'`;
}
