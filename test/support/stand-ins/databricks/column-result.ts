/**
 * Serializes a DuckDB result as Thrift columns (COLUMN_BASED_SET), the older result format a
 * warehouse answers with when Arrow is not in use: one TColumn per column, typed value lists plus
 * a null bitmap (bit i set = row i is NULL). BIGINT goes as Int64, DECIMAL/DATE/TIMESTAMP as text,
 * which is what makes the driver turn DECIMAL into a JS number (`Number(text)`) on this path. A
 * TIMESTAMP (an instant: DuckDB TIMESTAMPTZ) is written as its wall clock in the session time zone,
 * without an offset, as Databricks writes it; a TIMESTAMP_NTZ as its own wall clock.
 */
import { createRequire } from "node:module";
import { DuckDBTimestampTZValue } from "@duckdb/node-api";
import type { StandInColumn } from "./arrow-result.js";
import { zoneOffsetMs } from "./parameter-values.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the Thrift runtime is untyped JS */
const require = createRequire(import.meta.url);
const T = (require("@databricks/sql") as { thrift: { TCLIService_types: any } }).thrift.TCLIService_types;
const thrift = require(require.resolve("thrift", { paths: [require.resolve("@databricks/sql")] })) as any;
const Int64 = thrift.Int64 as new (hex: string) => unknown;

function nullBitmap(values: readonly unknown[]): Buffer {
  const bits = Buffer.alloc(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v === null || v === undefined) bits[i >> 3]! |= 1 << (i & 7);
  });
  return bits;
}

function int64(value: unknown): unknown {
  return new Int64(
    BigInt.asUintN(64, BigInt(value as bigint | number))
      .toString(16)
      .padStart(16, "0"),
  );
}

/** Text of a timestamp cell: `YYYY-MM-DD HH:MM:SS.fff`, instants shifted into the session time zone. */
function timestampText(value: unknown, timeZone: string): string {
  const micros = (value as { micros: bigint }).micros;
  let ms = Number(micros / 1000n);
  if (value instanceof DuckDBTimestampTZValue) ms += zoneOffsetMs(timeZone, ms);
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

/** One result column as a TColumn. */
function columnOf(column: StandInColumn, values: readonly unknown[], timeZone: string): unknown {
  const nulls = nullBitmap(values);
  const filled = <D>(fill: D, convert: (v: unknown) => D): D[] =>
    values.map((v) => (v === null || v === undefined ? fill : convert(v)));
  switch (column.typeName) {
    case "BOOLEAN":
      return new T.TColumn({ boolVal: new T.TBoolColumn({ values: filled(false, Boolean), nulls }) });
    case "TINYINT":
      return new T.TColumn({ byteVal: new T.TByteColumn({ values: filled(0, Number), nulls }) });
    case "SMALLINT":
      return new T.TColumn({ i16Val: new T.TI16Column({ values: filled(0, Number), nulls }) });
    case "INT":
      return new T.TColumn({ i32Val: new T.TI32Column({ values: filled(0, Number), nulls }) });
    case "BIGINT":
      return new T.TColumn({ i64Val: new T.TI64Column({ values: filled(int64(0), int64), nulls }) });
    case "FLOAT":
    case "DOUBLE":
      return new T.TColumn({ doubleVal: new T.TDoubleColumn({ values: filled(0, Number), nulls }) });
    case "TIMESTAMP":
      return new T.TColumn({
        stringVal: new T.TStringColumn({ values: filled("", (v) => timestampText(v, timeZone)), nulls }),
      });
    default:
      return new T.TColumn({ stringVal: new T.TStringColumn({ values: filled("", String), nulls }) });
  }
}

/** Rows (DuckDB raw values) as the `columns` of a TRowSet. */
export function thriftColumns(
  columns: readonly StandInColumn[],
  rows: readonly (readonly unknown[])[],
  timeZone: string,
): unknown[] {
  return columns.map((column, i) =>
    columnOf(
      column,
      rows.map((row) => row[i]),
      timeZone,
    ),
  );
}
