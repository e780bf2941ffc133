/**
 * Backend B values in and out. Column kinds come from the Thrift result schema
 * (`operation.getSchema()`, its type names looked up in `DATABRICKS_TYPES`); values arrive from `@databricks/sql` and are normalized to the
 * library's value types (README "How values arrive").
 *
 * Exactness: with `preserveBigNumericPrecision: true` and Arrow results (what warehouses send),
 * the driver hands BIGINT over as `bigint` and DECIMAL as exact text, which become `bigint` and
 * `Decimal` here without going through a double. On the column-based (TColumn) path the driver
 * itself already turned BIGINT into a double (node-int64 `toNumber()`) and DECIMAL into
 * `Number(text)`; a BIGINT that is no longer a safe integer, or a DECIMAL wider than 15 digits,
 * raises `DataError` there instead of arriving rounded.
 */
import type { TTableSchema, TColumnDesc } from "@databricks/sql/thrift/TCLIService_types.js";
import type { ColumnInfo } from "../../driver/query-result.js";
import { DataError } from "../../errors.js";
import { Decimal } from "../../values/decimal.js";
import { isGenuineDate } from "../../values/genuine.js";
import { INT64, inexactNumberProblem, inRange } from "../../values/integer-ranges.js";
import { parameterError } from "../../values/parameter-error.js";
import { decimalProblem } from "../../query-compiler/decimal-type.js";
import { DATABRICKS_TYPES } from "./databricks-types.js";

/** TTypeId numbers (TCLIService.thrift), named by the SQL type they stand for. */
const TYPE_NAMES: Readonly<Record<number, string>> = {
  0: "BOOLEAN",
  1: "TINYINT",
  2: "SMALLINT",
  3: "INT",
  4: "BIGINT",
  5: "FLOAT",
  6: "DOUBLE",
  7: "STRING",
  8: "TIMESTAMP",
  9: "BINARY",
  10: "ARRAY",
  11: "MAP",
  12: "STRUCT",
  13: "UNIONTYPE",
  14: "USER_DEFINED",
  15: "DECIMAL",
  16: "VOID",
  17: "DATE",
  18: "VARCHAR",
  19: "CHAR",
  20: "INTERVAL YEAR TO MONTH",
  21: "INTERVAL DAY TO SECOND",
};

/** The library's column info for each column of a result schema, in position order. */
export function columnsOfSchema(schema: TTableSchema | null | undefined): ColumnInfo[] {
  if (!schema) return [];
  return [...schema.columns].sort((a, b) => a.position - b.position).map(columnOf);
}

/** A column's type text from its Thrift type (`DECIMAL(p,s)` from its qualifiers), its kind from `DATABRICKS_TYPES`. */
function columnOf(column: TColumnDesc): ColumnInfo {
  const entry = column.typeDesc.types[0]?.primitiveEntry;
  let type = entry === undefined ? "OTHER" : (TYPE_NAMES[entry.type] ?? "OTHER");
  if (type === "DECIMAL") {
    const qualifiers = entry?.typeQualifiers?.qualifiers ?? {};
    type = `DECIMAL(${qualifiers["precision"]?.i32Value ?? 10},${qualifiers["scale"]?.i32Value ?? 0})`;
  }
  return { name: column.columnName, type, kind: DATABRICKS_TYPES.kindOf(type) };
}

/** Normalizes one value the driver produced for a column of the given kind. */
export function normalizeValue(value: unknown, column: ColumnInfo): unknown {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case "integer":
      return typeof value === "number" ? value : Number(value);
    case "bigint":
      return toBigInt(value, column);
    case "decimal":
      return toDecimal(value, column);
    case "float":
      return typeof value === "number" ? value : Number(value);
    case "boolean":
      return typeof value === "boolean" ? value : String(value).toLowerCase() === "true";
    case "string":
      return typeof value === "string" ? value : String(value);
    case "date":
      return toDate(value);
    case "timestamp":
      return toTimestamp(value);
    default:
      return value;
  }
}

function toBigInt(value: unknown, column: ColumnInfo): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "string") {
    // DECIMAL(p,0) arrives as exact text, maybe with a trailing ".0" on some paths.
    return BigInt(value.replace(/\.0*$/, ""));
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  throw new DataError(
    `Column ${column.name} (${column.type}) arrived as ${String(value)}, which is not an exact 64-bit integer ` +
      "(the driver converted it through a double: result was not Arrow-based)",
    { code: "LOSSY_BIGINT" },
  );
}

/** Every decimal text of at most this many significant digits survives a double unchanged. */
const DOUBLE_EXACT_DIGITS = 15;

function toDecimal(value: unknown, column: ColumnInfo): Decimal {
  if (Decimal.isDecimal(value)) return value;
  if (typeof value === "number") return decimalFromDouble(value, column);
  if (typeof value === "string" || typeof value === "bigint") {
    try {
      return Decimal.from(value);
    } catch (error) {
      throw new DataError(`Column ${column.name} (${column.type}) arrived as ${String(value)}, not a decimal number`, {
        cause: error,
      });
    }
  }
  throw new DataError(`Column ${column.name} (${column.type}) arrived as an unexpected ${typeof value}`);
}

/**
 * A DECIMAL the driver already turned into a double (column-based results: `Number(text)`). Exact
 * only when the column's precision is at most 15 digits; otherwise the text may have lost digits
 * we cannot see, so it raises `DataError` as a BIGINT beyond 2^53 does.
 */
function decimalFromDouble(value: number, column: ColumnInfo): Decimal {
  const [precision = Number.NaN, scale = 0] = (/\((\d+),(\d+)\)/.exec(column.type) ?? []).slice(1).map(Number);
  if (!(precision <= DOUBLE_EXACT_DIGITS) || !Number.isFinite(value)) {
    throw new DataError(
      `Column ${column.name} (${column.type}) arrived as the JS number ${String(value)}, which may have lost digits ` +
        "(the driver converted it through a double: result was not Arrow-based)",
      { code: "LOSSY_DECIMAL" },
    );
  }
  const decimal = Decimal.from(value);
  return decimal.scale < scale ? decimal.withScale(scale) : decimal;
}

/** A DATE as a `Date` at UTC midnight. */
function toDate(value: unknown): Date {
  if (value instanceof Date) return new Date(Date.UTC(value.getUTCFullYear(), value.getUTCMonth(), value.getUTCDate()));
  if (typeof value === "number") return toDate(new Date(value));
  const text = String(value);
  const parsed = /^(-?\d{4,})-(\d{2})-(\d{2})/.exec(text);
  if (!parsed) return new Date(Number.NaN);
  const date = new Date(Date.UTC(2000, Number(parsed[2]) - 1, Number(parsed[3])));
  date.setUTCFullYear(Number(parsed[1]));
  return date;
}

/** A TIMESTAMP as a `Date`. Text without an offset (column-based results) is read as UTC. */
function toTimestamp(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value).trim().replace(" ", "T");
  return new Date(/(?:Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
}

/** A row object from the driver (keyed by column name) as an array of normalized values. */
export function normalizeRow(row: Record<string, unknown>, columns: readonly ColumnInfo[]): unknown[] {
  return columns.map((column) => normalizeValue(row[column.name], column));
}

/** What the driver accepts as an ordinal parameter value. */
export type OrdinalParameter =
  string | number | bigint | boolean | Date | null | { readonly type: string; readonly value: string };

/**
 * Library parameter values → `ordinalParameters`. A `Decimal` goes as exact text typed
 * `DECIMAL(p,s)` from its own digits: a bare `DECIMAL` parameter is DECIMAL(10,0) on the warehouse,
 * which would round `5.2` to 5 and overflow beyond 10 digits. (The query compiler sends Decimals as
 * text inside `CAST(? AS DECIMAL(p,s))`.) The driver binds a bigint as BIGINT and a whole number
 * beyond ±(2^53-1) as DOUBLE (exact), so only a bigint beyond BIGINT, -0, NaN, ±Infinity and
 * non-genuine Dates or Decimals are refused, as a ValidationError naming the parameter.
 */
export function toOrdinalParameters(
  parameters: readonly unknown[] | undefined,
  decimalParameter: (text: string, sqlType: string) => OrdinalParameter,
): OrdinalParameter[] | undefined {
  if (parameters === undefined || parameters.length === 0) return undefined;
  return parameters.map((value, i) => {
    if (value === null || value === undefined) return null;
    if (Decimal.isDecimal(value)) return decimalParameter(value.toString(), decimalType(value, i));
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number": {
        const problem = inexactNumberProblem(value);
        if (problem !== undefined) throw parameterError(i + 1, value, problem);
        return value;
      }
      case "bigint":
        if (!inRange(value, INT64))
          throw parameterError(i + 1, value, "outside BIGINT, which backend B binds a bigint as");
        return value;
      default:
        if (isGenuineDate(value)) return new Date(value.getTime()); // a copy: the driver calls its methods
        throw parameterError(
          i + 1,
          value,
          "backend B cannot bind this type (only string, number, bigint, boolean, a genuine Date or Decimal, null)",
        );
    }
  });
}

/** `DECIMAL(p,s)` holding the value exactly; more than 38 digits is a ValidationError naming the parameter. */
function decimalType(value: Decimal, index: number): string {
  const problem = decimalProblem(value, "Databricks");
  if (problem !== undefined) throw parameterError(index + 1, value, problem);
  return `DECIMAL(${value.precision},${value.scale})`;
}
