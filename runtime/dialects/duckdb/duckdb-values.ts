/**
 * DuckDB values in and out: column kinds from DuckDB types, result values normalized to the
 * library's value types (README "How values arrive"), and JS parameters turned into DuckDB values.
 */
import type { DuckDBType, DuckDBValue, DuckDBValueConverter } from "@duckdb/node-api";
import type { ValueKind } from "../../driver/query-result.js";
import { Decimal } from "../../values/decimal.js";
import { isGenuineDate } from "../../values/genuine.js";
import { INT128, inexactNumberProblem, inRange } from "../../values/integer-ranges.js";
import { parameterError } from "../../values/parameter-error.js";
import { duckdb } from "./duckdb-api.js";
import { DUCKDB_TYPES } from "./duckdb-types.js";

const MS_PER_DAY = 86_400_000;
/** DuckDB's widest DECIMAL. */
const MAX_DECIMAL_WIDTH = 38;

/** The value kind of a DuckDB column type (its type text looked up in `DUCKDB_TYPES`). */
export function kindOfType(type: DuckDBType): ValueKind {
  return DUCKDB_TYPES.kindOf(type.toString());
}

/**
 * The value kind of a DuckDB type text such as `DECIMAL(38,2)` or `TIMESTAMP WITH TIME ZONE`.
 * Used for results the built-in semantic layer computes itself, which carry only type texts.
 */
export function kindOfTypeText(typeText: string): ValueKind {
  return DUCKDB_TYPES.kindOf(typeText);
}

/** Floor division for bigint (`/` truncates towards zero, wrong for instants before 1970). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/**
 * Normalizes one DuckDB value of the given type. Numbers of the 64-bit and wider types stay
 * `bigint`; decimals with a scale become exact `Decimal`s built from the unscaled integer (never
 * via a double); dates and timestamps become `Date`s (sub-millisecond digits are dropped).
 */
export const normalizingConverter: DuckDBValueConverter<unknown> = (value, type) => {
  const {
    DuckDBTypeId,
    DuckDBDecimalValue,
    DuckDBDateValue,
    DuckDBTimestampValue,
    DuckDBTimestampTZValue,
    DuckDBTimestampSecondsValue,
    DuckDBTimestampMillisecondsValue,
    DuckDBTimestampNanosecondsValue,
    JSDuckDBValueConverter,
  } = duckdb();
  if (value === null) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return typeof value === "bigint" ? value : BigInt(value as number);
    case DuckDBTypeId.DECIMAL:
      if (value instanceof DuckDBDecimalValue) {
        return value.scale === 0 ? value.value : new Decimal(value.value, value.scale);
      }
      break;
    case DuckDBTypeId.DATE:
      if (value instanceof DuckDBDateValue) return new Date(value.days * MS_PER_DAY);
      break;
    case DuckDBTypeId.TIMESTAMP:
      if (value instanceof DuckDBTimestampValue) return new Date(Number(floorDiv(value.micros, 1000n)));
      break;
    case DuckDBTypeId.TIMESTAMP_TZ:
      if (value instanceof DuckDBTimestampTZValue) return new Date(Number(floorDiv(value.micros, 1000n)));
      break;
    case DuckDBTypeId.TIMESTAMP_S:
      if (value instanceof DuckDBTimestampSecondsValue) return new Date(Number(value.seconds) * 1000);
      break;
    case DuckDBTypeId.TIMESTAMP_MS:
      if (value instanceof DuckDBTimestampMillisecondsValue) return new Date(Number(value.millis));
      break;
    case DuckDBTypeId.TIMESTAMP_NS:
      if (value instanceof DuckDBTimestampNanosecondsValue) return new Date(Number(floorDiv(value.nanos, 1_000_000n)));
      break;
    default:
      break;
  }
  if (
    typeof value === "number" ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    typeof value === "bigint"
  ) {
    return value;
  }
  // Lists, structs, blobs, intervals, UUIDs, ...: the reader's own JS conversion, with the values inside
  // a list, struct or map normalized as above (its own would turn a nested DECIMAL into a rounded number;
  // it is typed as making its own JS values, ours include Decimal).
  const nested = normalizingConverter as Parameters<typeof JSDuckDBValueConverter>[2];
  return JSDuckDBValueConverter(value, type, nested);
};

/**
 * Normalizes a value for a column known only by its type text (results computed by the
 * built-in semantic layer). Accepts DuckDB value objects as well as plain JS values.
 */
export function normalizeByKind(value: unknown, kind: ValueKind): unknown {
  if (value === null || value === undefined) return null;
  const { DuckDBDecimalValue, DuckDBDateValue, DuckDBTimestampValue, DuckDBTimestampTZValue } = duckdb();
  const { DuckDBTimestampMillisecondsValue, DuckDBTimestampSecondsValue, DuckDBTimestampNanosecondsValue } = duckdb();
  switch (kind) {
    case "integer":
      return typeof value === "bigint" ? Number(value) : value;
    case "bigint":
      if (typeof value === "bigint") return value;
      if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
      if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
      if (value instanceof DuckDBDecimalValue) return floorDiv(value.value, 10n ** BigInt(value.scale));
      if (Decimal.isDecimal(value)) return value.toBigInt();
      return value;
    case "decimal":
      if (Decimal.isDecimal(value)) return value;
      if (value instanceof DuckDBDecimalValue) return new Decimal(value.value, value.scale);
      if (typeof value === "string" || typeof value === "bigint") return Decimal.from(value);
      if (typeof value === "number") return Decimal.from(String(value));
      return value;
    case "float":
      if (typeof value === "bigint") return Number(value);
      if (value instanceof DuckDBDecimalValue) return value.toDouble();
      return value;
    case "string":
      // A UUID comes as a DuckDB value object; its text is the canonical form the driver reads too.
      return value instanceof duckdb().DuckDBUUIDValue ? value.toString() : value;
    case "date":
      if (value instanceof DuckDBDateValue) return new Date(value.days * MS_PER_DAY);
      if (typeof value === "string") return new Date(`${value.slice(0, 10)}T00:00:00Z`);
      return value;
    case "timestamp":
      if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
        return new Date(Number(floorDiv(value.micros, 1000n)));
      }
      if (value instanceof DuckDBTimestampMillisecondsValue) return new Date(Number(value.millis));
      if (value instanceof DuckDBTimestampSecondsValue) return new Date(Number(value.seconds) * 1000);
      if (value instanceof DuckDBTimestampNanosecondsValue) return new Date(Number(floorDiv(value.nanos, 1_000_000n)));
      return value;
    default:
      return value;
  }
}

/** Decimal digits of |n|. */
function digitCount(n: bigint): number {
  return (n < 0n ? -n : n).toString().length;
}

/**
 * Turns a JS parameter into something DuckDB binds: `bigint` stays `bigint` (DuckDB infers BIGINT,
 * or HUGEINT when larger); a `Decimal` becomes a DuckDB DECIMAL value of its own width and scale,
 * or, beyond DuckDB's 38 digits, its exact string (DuckDB casts it where it is used); a `Date`
 * becomes a TIMESTAMP (UTC; compare with DATE columns works through DuckDB's implicit cast).
 * `undefined` binds as NULL. A value DuckDB would change is a ValidationError naming it: a bigint
 * outside HUGEINT (the driver wraps 2^127 to -2^127), a whole number beyond BIGINT (the driver
 * binds whole numbers as BIGINT), -0, NaN, ±Infinity, a non-genuine Date or Decimal.
 */
export function toDuckDBParameter(value: unknown, position: number): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number": {
      const problem = inexactNumberProblem(value);
      if (problem !== undefined) throw parameterError(position, value, problem);
      if (value >= 2 ** 63 || value < -(2 ** 63)) {
        throw parameterError(
          position,
          value,
          "a whole number beyond BIGINT, which DuckDB binds whole numbers as; pass a bigint",
        );
      }
      return value;
    }
    case "bigint":
      if (!inRange(value, INT128))
        throw parameterError(position, value, "outside DuckDB's HUGEINT range (the driver would wrap it)");
      return value;
  }
  if (Decimal.isDecimal(value)) {
    const { decimalValue } = duckdb();
    const width = Math.max(digitCount(value.unscaled), value.scale, 1);
    if (width > MAX_DECIMAL_WIDTH) return value.toString();
    return decimalValue(value.unscaled, width, value.scale);
  }
  if (isGenuineDate(value)) {
    if (Number.isNaN(value.getTime())) throw parameterError(position, value, "the Date is invalid");
    return duckdb().timestampValue(BigInt(value.getTime()) * 1000n);
  }
  if (isDuckDBValueObject(value)) return value;
  throw parameterError(
    position,
    value,
    "unsupported type; pass a number, bigint, string, boolean, Decimal, Date or null",
  );
}

/** DuckDB's own value classes (already bindable) are passed through untouched. */
function isDuckDBValueObject(value: object): value is Exclude<DuckDBValue, null | boolean | number | bigint | string> {
  return value.constructor?.name?.startsWith("DuckDB") === true && value.constructor.name.endsWith("Value");
}

export function toDuckDBParameters(parameters: readonly unknown[] | undefined): DuckDBValue[] | undefined {
  if (parameters === undefined || parameters.length === 0) return undefined;
  return parameters.map((value, index) => toDuckDBParameter(value, index + 1));
}
