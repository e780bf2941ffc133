/**
 * Backend A result columns → `ColumnInfo` and normalized values (README "How values arrive").
 *
 * Numbers are fetched as the exact text Snowflake sent (`fetchAsString: ["Number"]`) and converted
 * per column by its kind (`SNOWFLAKE_TYPES` of its rowtype), so nothing goes through a lossy JS double:
 * - NUMBER(p,0) with p ≤ 9 → `number` ("integer"); p > 9 (NUMBER(38,0), what SUM over an integer
 *   column gives) → `bigint`;
 * - NUMBER(p,s) with s > 0 → `Decimal` at the column's scale ("decimal");
 * - FLOAT/REAL → `number` ("float", `inf`/`-inf`/`NaN` included);
 * - TEXT → string; BOOLEAN → boolean; DATE → `Date` at UTC midnight; TIMESTAMP_NTZ/LTZ/TZ → `Date`
 *   (the sdk reads NTZ as UTC; sub-millisecond digits are dropped by `Date`);
 * - anything else (TIME as text, VARIANT/OBJECT/ARRAY parsed JSON, BINARY Buffer) passes through.
 */
import type { ColumnInfo, ValueKind } from "../../driver/query-result.js";
import { Decimal } from "../../values/decimal.js";
import { isGenuineDate } from "../../values/genuine.js";
import { DIGITS38, inexactNumberProblem, inRange } from "../../values/integer-ranges.js";
import { parameterError } from "../../values/parameter-error.js";
import { SNOWFLAKE_TYPES } from "./snowflake-types.js";

/** The part of snowflake-sdk's `Column` this module reads. */
export interface SnowflakeColumnLike {
  getName(): string;
  getType(): string;
  getScale(): number;
  getPrecision(): number;
}

type Convert = (value: unknown) => unknown;

const NUMERIC_KINDS: ReadonlySet<ValueKind> = new Set<ValueKind>(["integer", "bigint", "decimal", "float"]);

export interface SnowflakeColumn {
  readonly info: ColumnInfo;
  readonly convert: Convert;
}

const asText = (value: unknown): string => (typeof value === "string" ? value : String(value));

function toFloat(value: unknown): number {
  if (typeof value === "number") return value;
  const text = asText(value).trim().toLowerCase();
  if (text === "inf" || text === "infinity") return Infinity;
  if (text === "-inf" || text === "-infinity") return -Infinity;
  return Number(text);
}

function toDate(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  return value;
}

/** The Snowflake type text for a column, e.g. `NUMBER(38,0)`, `TIMESTAMP_NTZ(9)`. */
export function snowflakeTypeText(column: SnowflakeColumnLike): string {
  const type = column.getType().toLowerCase();
  switch (type) {
    case "fixed":
      return `NUMBER(${column.getPrecision()},${column.getScale()})`;
    case "real":
      return "FLOAT";
    case "text":
      return "VARCHAR";
    case "timestamp_ntz":
    case "timestamp_ltz":
    case "timestamp_tz":
    case "time":
      return `${type.toUpperCase()}(${column.getScale()})`;
    default:
      return type.toUpperCase();
  }
}

/** A column's info (its kind from `SNOWFLAKE_TYPES`) and the conversion its values need. */
export function snowflakeColumn(column: SnowflakeColumnLike): SnowflakeColumn {
  const type = snowflakeTypeText(column);
  const kind = SNOWFLAKE_TYPES.kindOf(type);
  return { info: Object.freeze({ name: column.getName(), type, kind }), convert: converterFor(kind, column) };
}

function converterFor(kind: ValueKind, column: SnowflakeColumnLike): Convert {
  switch (kind) {
    case "decimal": {
      const scale = column.getScale();
      return (v) => {
        const d = Decimal.parse(asText(v));
        return d.scale < scale ? d.withScale(scale) : d;
      };
    }
    case "integer":
      return (v) => Number(asText(v));
    case "bigint":
      return (v) => BigInt(asText(v));
    case "float":
      return toFloat;
    case "boolean":
      return (v) => (typeof v === "boolean" ? v : asText(v) === "1" || asText(v).toLowerCase() === "true");
    case "date":
    case "timestamp":
      return toDate;
    case "string":
    case "other":
      return (v) => v;
  }
}

/** Normalizes one row (an array in column order, as `rowMode: "array"` gives it). */
export function convertRow(columns: readonly SnowflakeColumn[], row: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const value = row[i];
    const column = columns[i]!;
    // A number fetched as text is "NULL" when the sdk represents NULL as a string (a global switch).
    const isNull = value === null || value === undefined || (value === "NULL" && NUMERIC_KINDS.has(column.info.kind));
    out[i] = isNull ? null : column.convert(value);
  }
  return out;
}

/**
 * A parameter as snowflake-sdk can bind it: bigint and Decimal as exact text (the sdk cannot
 * bind a bigint, and a number would lose digits; the compiler casts them back in SQL), everything
 * else unchanged. A Date in raw SQL goes as ISO text, which Snowflake parses with the account's
 * TIMESTAMP_INPUT_FORMAT (fine with the default AUTO); the query builder never sends one: it binds
 * epoch milliseconds inside `TO_TIMESTAMP_NTZ(?, 3)`, and raw SQL can do the same with `date.getTime()`.
 * The sdk sends every whole number as a FIXED integer by its shortest text (`2^63` as
 * `9223372036854776000`, `1e21` as `1e+21`), so a whole number beyond ±(2^53-1) is refused here (the
 * query compiler sends those as DOUBLE text itself), as are -0, NaN, ±Infinity, a bigint beyond
 * NUMBER(38,0) and any non-genuine Date or Decimal, each as a ValidationError naming the parameter.
 */
export function toSnowflakeBind(value: unknown, index = 0): string | number | boolean | null {
  const position = index + 1;
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number": {
      const problem = inexactNumberProblem(value);
      if (problem !== undefined) throw parameterError(position, value, problem);
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw parameterError(
          position,
          value,
          "a whole number beyond ±(2^53-1) would be sent inexactly as a FIXED integer; pass a bigint",
        );
      }
      return value;
    }
    case "bigint":
      if (!inRange(value, DIGITS38)) throw parameterError(position, value, "outside Snowflake's NUMBER(38,0)");
      return value.toString();
  }
  if (Decimal.isDecimal(value)) return value.toString();
  if (isGenuineDate(value)) {
    if (Number.isNaN(value.getTime())) throw parameterError(position, value, "the Date is invalid");
    return value.toISOString();
  }
  throw parameterError(
    position,
    value,
    "backend A cannot bind this type (only string, number, bigint, boolean, a genuine Date or Decimal, null)",
  );
}
