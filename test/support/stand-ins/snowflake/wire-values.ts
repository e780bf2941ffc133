/**
 * DuckDB result columns as Snowflake's JSON result format describes them: `rowtype` entries and
 * string cells (fixed as decimal text, date as days since epoch, timestamps as epoch seconds with a
 * 9-digit fraction, booleans as "1"/"0"). Integer precisions follow what Snowflake reports: the
 * translator turns Snowflake's integer types (INTEGER, INT, BIGINT, ... all NUMBER(38,0)) into
 * DECIMAL(38,0), so a DuckDB integer result is what Snowflake types by its value: a literal
 * (`SELECT 1` is NUMBER(1,0), `SELECT 123` NUMBER(3,0)); COUNT (DuckDB BIGINT) is NUMBER(18,0); a
 * SUM over integers (DuckDB HUGEINT) NUMBER(38,0); DECIMAL(p,s) is NUMBER(p,s).
 */
import { DuckDBDecimalType, DuckDBTypeId } from "@duckdb/node-api";
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api";

export interface RowType {
  readonly name: string;
  readonly type: string;
  readonly precision: number | null;
  readonly scale: number | null;
  readonly length: number | null;
  readonly byteLength: number | null;
  readonly nullable: boolean;
  readonly database: string;
  readonly schema: string;
  readonly table: string;
  readonly collation: null;
}

type Encoder = (value: DuckDBValue) => string;

export interface WireColumn {
  readonly rowType: RowType;
  readonly encode: Encoder;
}

/** Integer types that only literals and small expressions produce: typed by their values' digits. */
const LITERAL_INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
]);

/** Fixed precisions: COUNT is NUMBER(18,0), SUM over NUMBER(38,0) stays NUMBER(38,0). */
const INTEGER_PRECISION = new Map<DuckDBTypeId, number>([
  [DuckDBTypeId.BIGINT, 18],
  [DuckDBTypeId.UBIGINT, 18],
  [DuckDBTypeId.HUGEINT, 38],
  [DuckDBTypeId.UHUGEINT, 38],
]);

/** Digits of the widest value (at least 1), as Snowflake types an integer literal. */
function literalPrecision(values: readonly DuckDBValue[]): number {
  let digits = 1;
  for (const v of values) if (v !== null) digits = Math.max(digits, String(v).replace("-", "").length);
  return digits;
}

/** `values` are the column's cells, for the precision of literal integers. */
export function wireColumn(name: string, type: DuckDBType, values: readonly DuckDBValue[] = []): WireColumn {
  const rowType = (snowflakeType: string, extra: Partial<RowType> = {}): RowType => ({
    name,
    type: snowflakeType,
    precision: null,
    scale: null,
    length: null,
    byteLength: null,
    nullable: true,
    database: "",
    schema: "",
    table: "",
    collation: null,
    ...extra,
  });
  if (LITERAL_INTEGER_TYPES.has(type.typeId))
    return { rowType: rowType("fixed", { precision: literalPrecision(values), scale: 0 }), encode: String };
  const integerPrecision = INTEGER_PRECISION.get(type.typeId);
  if (integerPrecision !== undefined)
    return { rowType: rowType("fixed", { precision: integerPrecision, scale: 0 }), encode: String };
  if (type instanceof DuckDBDecimalType) {
    return { rowType: rowType("fixed", { precision: type.width, scale: type.scale }), encode: String };
  }
  switch (type.typeId) {
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return { rowType: rowType("real"), encode: String };
    case DuckDBTypeId.BOOLEAN:
      return { rowType: rowType("boolean"), encode: (v) => (v ? "1" : "0") };
    case DuckDBTypeId.DATE:
      return { rowType: rowType("date"), encode: (v) => String((v as { days: number }).days) };
    case DuckDBTypeId.TIMESTAMP:
      return {
        rowType: rowType("timestamp_ntz", { scale: 9, precision: 0 }),
        encode: (v) => epochSeconds((v as { micros: bigint }).micros),
      };
    case DuckDBTypeId.TIMESTAMP_TZ:
      return {
        rowType: rowType("timestamp_ltz", { scale: 9, precision: 0 }),
        encode: (v) => epochSeconds((v as { micros: bigint }).micros),
      };
    case DuckDBTypeId.VARCHAR:
      return { rowType: rowType("text", { length: 16777216, byteLength: 16777216 }), encode: String };
    default:
      return { rowType: rowType("text", { length: 16777216, byteLength: 16777216 }), encode: String };
  }
}

/** Epoch seconds as a signed decimal with 9 fraction digits (`-0.500000000` is half a second before 1970). */
function epochSeconds(micros: bigint): string {
  const sign = micros < 0n ? "-" : "";
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}000`;
}

export function encodeRow(columns: readonly WireColumn[], row: readonly DuckDBValue[]): (string | null)[] {
  return row.map((value, i) => (value === null ? null : columns[i]!.encode(value)));
}
