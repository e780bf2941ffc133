/**
 * Row conversion planned once per result: one reader per column, chosen from the column's DuckDB
 * type, fills that column of every row of a chunk. The driver's own `convertRows` dispatches on the
 * type of every value and asks the native chunk for its column count on every row; here the loops
 * are per column and monomorphic. Values come out exactly as `normalizingConverter` makes them.
 */
import type { DuckDBDataChunk, DuckDBType, DuckDBVector } from "@duckdb/node-api";
import { Decimal } from "../../values/decimal.js";
import { normalizingConverter } from "./duckdb-values.js";
import { duckdb, type DuckDBApi } from "./duckdb-api.js";
import { duckdbBindings } from "./duckdb-bindings.js";

const MS_PER_DAY = 86_400_000;

/** Reads one vector's `count` values, normalized. */
export type ColumnReader = (vector: DuckDBVector, count: number) => unknown[];

/** Turns one chunk into row arrays (or column arrays) of normalized values. */
export type ChunkReader = (chunk: DuckDBDataChunk) => unknown[][];

/** What every DuckDB decimal vector offers besides `getItem`: the unscaled integer. */
interface ScaledVector {
  getScaledValue(index: number): number | bigint | null;
}

const direct: ColumnReader = (vector, count) => {
  const out = new Array<unknown>(count);
  for (let r = 0; r < count; r++) out[r] = vector.getItem(r);
  return out;
};

const date: ColumnReader = (vector, count) => {
  const out = new Array<unknown>(count);
  for (let r = 0; r < count; r++) {
    const value = vector.getItem(r) as { readonly days: number } | null;
    out[r] = value === null ? null : new Date(value.days * MS_PER_DAY);
  }
  return out;
};

function decimal(scale: number): ColumnReader {
  return (vector, count) => {
    const scaled = vector as unknown as ScaledVector;
    const out = new Array<unknown>(count);
    for (let r = 0; r < count; r++) {
      const unscaled = scaled.getScaledValue(r);
      if (unscaled === null) out[r] = null;
      else {
        const exact = typeof unscaled === "bigint" ? unscaled : BigInt(unscaled);
        out[r] = scale === 0 ? exact : new Decimal(exact, scale);
      }
    }
    return out;
  };
}

function generic(type: DuckDBType): ColumnReader {
  return (vector, count) => {
    const out = new Array<unknown>(count);
    for (let r = 0; r < count; r++) out[r] = normalizingConverter(vector.getItem(r), type, normalizingConverter);
    return out;
  };
}

/** The per-value reader for a column of `type` (one normalized value per row). */
export function readerFor(type: DuckDBType): ColumnReader {
  const { DuckDBTypeId } = duckdb(); // loaded lazily (duckdb-api.ts)
  switch (type.typeId) {
    // getItem already gives the library's value: number, bigint, string or boolean.
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.VARCHAR:
      return direct;
    case DuckDBTypeId.DATE:
      return date;
    case DuckDBTypeId.DECIMAL:
      return decimal(type.scale);
    default:
      return generic(type);
  }
}

type NativeVectorOf = Parameters<DuckDBApi["DuckDBVector"]["create"]>[0];

/**
 * Column `column` of `chunk` as a vector of the planned `type`: node-api's `getColumnVector` asks the
 * chunk for the vector's logical type and builds a type object from it, per column and chunk (one
 * native handle more for the collector to finalize each time), for the very type the plan holds
 * already (the plan is this result's, or one whose columns were checked to be the same:
 * duckdb-result-plan.ts).
 */
export function plannedVector(chunk: DuckDBDataChunk, column: number, count: number, type: DuckDBType): DuckDBVector {
  const native = duckdbBindings().data_chunk_get_vector(chunk.chunk, column) as unknown as NativeVectorOf;
  return duckdb().DuckDBVector.create(native, count, type);
}

/** Plans the column readers for a result's column types (once per result): chunks to column arrays. */
export function planChunkColumns(types: readonly DuckDBType[]): ChunkReader {
  const readers = types.map(readerFor);
  const width = readers.length;
  return (chunk) => {
    const count = chunk.rowCount;
    const columns = new Array<unknown[]>(width);
    for (let c = 0; c < width; c++) columns[c] = readers[c]!(plannedVector(chunk, c, count, types[c]!), count);
    return columns;
  };
}

/** Same plan, chunks to row arrays. */
export function planChunkRows(types: readonly DuckDBType[]): ChunkReader {
  const readColumns = planChunkColumns(types);
  const width = types.length;
  return (chunk) => {
    const columns = readColumns(chunk);
    const count = chunk.rowCount;
    const rows = new Array<unknown[]>(count);
    for (let r = 0; r < count; r++) {
      const row = new Array<unknown>(width);
      for (let c = 0; c < width; c++) row[c] = columns[c]![r];
      rows[r] = row;
    }
    return rows;
  };
}
