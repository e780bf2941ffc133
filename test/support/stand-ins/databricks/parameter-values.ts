/**
 * Spark statement parameters (a type name plus a string value) as the DuckDB values they stand
 * for, read as a Databricks warehouse reads them:
 * - `DECIMAL` without precision is DECIMAL(10,0), like the real service: a value with more
 *   fraction digits is rounded half up to the type's scale, one with too many digits fails with
 *   NUMERIC_VALUE_OUT_OF_RANGE (22003);
 * - `TIMESTAMP` text without an offset is a wall clock in the session time zone; with an offset
 *   (what the driver sends for a `Date`) it is that instant. `TIMESTAMP_NTZ` is a wall clock.
 */
import { dateValue, decimalValue, timestampTZValue, timestampValue, type DuckDBValue } from "@duckdb/node-api";
import { StandInSqlError } from "./metric-view-sql.js";

export interface SparkParameter {
  readonly ordinal?: number;
  readonly type?: string;
  readonly value?: string;
}

function decimalOf(type: string, text: string): DuckDBValue {
  const declared = /^DECIMAL(?:\((\d+)\s*,\s*(\d+)\))?$/i.exec(type.trim());
  const precision = Number(declared?.[1] ?? 10);
  const scale = Number(declared?.[2] ?? 0);
  const match = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (match === null)
    throw new StandInSqlError("CAST_INVALID_INPUT", "22018", `The value '${text}' cannot be cast to ${type}.`);
  const [, sign = "", whole = "", fraction = ""] = match;
  let unscaled = BigInt((whole || "0") + fraction.slice(0, scale).padEnd(scale, "0"));
  if (Number(fraction[scale] ?? "0") >= 5) unscaled += 1n; // HALF_UP on the first dropped digit
  if (unscaled.toString().length > precision) {
    throw new StandInSqlError(
      "NUMERIC_VALUE_OUT_OF_RANGE",
      "22003",
      `${text} cannot be represented as DECIMAL(${precision}, ${scale}).`,
    );
  }
  return decimalValue(sign === "-" ? -unscaled : unscaled, precision, scale);
}

/** Epoch microseconds of a wall clock `YYYY-MM-DD[ T]HH:MM:SS[.ffffff]` read in UTC. */
function wallClockMicros(text: string): bigint {
  const iso = text.trim().replace(" ", "T");
  const ms = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(ms))
    throw new StandInSqlError("CAST_INVALID_INPUT", "22018", `The value '${text}' cannot be cast to TIMESTAMP.`);
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? "";
  return BigInt(Math.floor(ms / 1000)) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, "0"));
}

/** The offset (ms) of a time zone at a UTC instant. */
export function zoneOffsetMs(timeZone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  })
    .formatToParts(new Date(utcMs))
    .reduce<Record<string, number>>(
      (acc, p) => (p.type === "literal" ? acc : { ...acc, [p.type]: Number(p.value) }),
      {},
    );
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

function timestampOf(text: string, sessionTimeZone: string): DuckDBValue {
  const explicit = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text.trim());
  let micros = wallClockMicros(text);
  if (!explicit) micros -= BigInt(zoneOffsetMs(sessionTimeZone, Number(micros / 1000n))) * 1000n;
  return timestampTZValue(micros);
}

/** One parameter as a DuckDB value; `sessionTimeZone` reads TIMESTAMP text without an offset. */
export function toDuckDBValue(p: SparkParameter, sessionTimeZone = "UTC"): DuckDBValue {
  const value = p.value;
  if (value === undefined || p.type === undefined || p.type === "VOID") return null;
  const type = p.type.toUpperCase();
  if (type.startsWith("DECIMAL")) return decimalOf(type, value);
  switch (type) {
    case "BOOLEAN":
      return value.toUpperCase() === "TRUE";
    case "TINYINT":
    case "SMALLINT":
    case "INTEGER":
    case "FLOAT":
    case "DOUBLE":
      return Number(value);
    case "BIGINT":
      return BigInt(value);
    case "DATE":
      return dateValue(Math.round(Date.parse(`${value}T00:00:00Z`) / 86_400_000));
    case "TIMESTAMP":
      return timestampOf(value, sessionTimeZone);
    case "TIMESTAMP_NTZ":
      return timestampValue(wallClockMicros(value));
    default:
      return value;
  }
}
