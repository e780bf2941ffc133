/**
 * Serializes a DuckDB result the way a Databricks warehouse answers with Arrow: a Thrift table
 * schema (TTypeId + DECIMAL precision/scale), an Arrow IPC schema message, and Arrow record
 * batches with native types (Int64, Decimal128, Date32, Timestamp µs UTC). Arrow is what real
 * warehouses send, and it is the path on which `@databricks/sql` with
 * `preserveBigNumericPrecision` hands BIGINT over as `bigint` and DECIMAL as an exact string;
 * the column-based (TColumn) path would turn a BIGINT beyond 2^53 into `Infinity`.
 */
import {
  Bool,
  DateDay,
  Decimal as ArrowDecimal,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMicrosecond,
  Utf8,
  makeData,
  tableToIPC,
  vectorFromArray,
  type Data,
  type DataType,
} from "apache-arrow";
import { DuckDBTypeId, type DuckDBType } from "@duckdb/node-api";

/** One result column: its Databricks type and how to build its Arrow vector. */
export interface StandInColumn {
  readonly name: string;
  /** TTypeId name without `_TYPE`, e.g. `BIGINT`, `DECIMAL`. */
  readonly typeName: string;
  readonly precision?: number;
  readonly scale?: number;
  readonly arrowType: DataType;
}

export function columnFor(name: string, type: DuckDBType): StandInColumn {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return { name, typeName: "BOOLEAN", arrowType: new Bool() };
    case DuckDBTypeId.TINYINT:
      return { name, typeName: "TINYINT", arrowType: new Int8() };
    case DuckDBTypeId.SMALLINT:
      return { name, typeName: "SMALLINT", arrowType: new Int16() };
    case DuckDBTypeId.INTEGER:
      return { name, typeName: "INT", arrowType: new Int32() };
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT: // DuckDB sums BIGINT/INTEGER into HUGEINT; Databricks answers BIGINT
      return { name, typeName: "BIGINT", arrowType: new Int64() };
    case DuckDBTypeId.FLOAT:
      return { name, typeName: "FLOAT", arrowType: new Float32() };
    case DuckDBTypeId.DOUBLE:
      return { name, typeName: "DOUBLE", arrowType: new Float64() };
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as unknown as { width: number; scale: number };
      return { name, typeName: "DECIMAL", precision: width, scale, arrowType: new ArrowDecimal(scale, width, 128) };
    }
    case DuckDBTypeId.DATE:
      return { name, typeName: "DATE", arrowType: new DateDay() };
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return { name, typeName: "TIMESTAMP", arrowType: new TimestampMicrosecond("Etc/UTC") };
    default:
      return { name, typeName: "STRING", arrowType: new Utf8() };
  }
}

function validity(values: readonly unknown[]): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8) || 1);
  let nullCount = 0;
  values.forEach((v, i) => {
    if (v === null || v === undefined) nullCount++;
    else nullBitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullBitmap, nullCount };
}

/** A DuckDB value (raw, as `getRows()` gives it) as one Arrow cell of the column's type. */
function dataFor(column: StandInColumn, values: readonly unknown[]): Data {
  const length = values.length;
  const { nullBitmap, nullCount } = validity(values);
  const type = column.arrowType;
  const isNull = (v: unknown) => v === null || v === undefined;
  switch (column.typeName) {
    case "BIGINT": {
      const data = new BigInt64Array(length);
      values.forEach((v, i) => {
        if (!isNull(v)) data[i] = BigInt.asIntN(64, BigInt(v as bigint | number));
      });
      return makeData({ type: type as Int64, length, nullCount, nullBitmap, data });
    }
    case "DECIMAL": {
      const data = new Uint32Array(length * 4);
      values.forEach((v, i) => {
        if (isNull(v)) return;
        let x = BigInt.asUintN(128, (v as { value: bigint }).value);
        for (let k = 0; k < 4; k++) {
          data[i * 4 + k] = Number(x & 0xffffffffn);
          x >>= 32n;
        }
      });
      return makeData({ type: type as ArrowDecimal, length, nullCount, nullBitmap, data });
    }
    case "DATE": {
      const data = new Int32Array(length);
      values.forEach((v, i) => {
        if (!isNull(v)) data[i] = (v as { days: number }).days;
      });
      return makeData({ type: type as DateDay, length, nullCount, nullBitmap, data });
    }
    case "TIMESTAMP": {
      const data = new BigInt64Array(length);
      values.forEach((v, i) => {
        if (!isNull(v)) data[i] = (v as { micros: bigint }).micros;
      });
      return makeData({ type: type as TimestampMicrosecond, length, nullCount, nullBitmap, data });
    }
    case "STRING":
      return vectorFromArray(
        values.map((v) => (isNull(v) ? null : String(v))),
        new Utf8(),
      ).data[0]!;
    default:
      return vectorFromArray(values.map((v) => (isNull(v) ? null : v)) as never[], type).data[0]!;
  }
}

export function arrowSchemaOf(columns: readonly StandInColumn[]): Schema {
  return new Schema(columns.map((c) => new Field(c.name, c.arrowType, true)));
}

/** The IPC schema message (a stream without its end-of-stream marker). */
export function arrowSchemaBytes(columns: readonly StandInColumn[]): Buffer {
  const bytes = tableToIPC(new Table(arrowSchemaOf(columns)), "stream");
  return Buffer.from(bytes.subarray(0, bytes.length - 8));
}

/** One record batch of `rows` as IPC bytes that follow the schema message. */
export function arrowBatchBytes(columns: readonly StandInColumn[], rows: readonly (readonly unknown[])[]): Buffer {
  const schema = arrowSchemaOf(columns);
  const children = columns.map((column, i) =>
    dataFor(
      column,
      rows.map((row) => row[i]),
    ),
  );
  const batch = new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }),
  );
  const bytes = tableToIPC(new Table([batch]), "stream");
  const schemaLength = arrowSchemaBytes(columns).length;
  return Buffer.from(bytes.subarray(schemaLength, bytes.length - 8));
}
