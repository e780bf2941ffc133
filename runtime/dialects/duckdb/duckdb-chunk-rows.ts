/**
 * Row conversion planned once per result: one reader per column, chosen from the column's DuckDB
 * type, fills that column of every row of a chunk. The driver's own `convertRows` dispatches on the
 * type of every value and asks the native chunk for its column count on every row; here the loops
 * are per column and monomorphic. Values come out exactly as `normalizingConverter` makes them.
 */
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBType, type DuckDBVector } from "@duckdb/node-api";
import { Decimal } from "../../values/decimal.js";
import { normalizingConverter } from "./duckdb-values.js";

const MS_PER_DAY = 86_400_000;

/** Fills column `column` of `rows[0..count)` from one vector. */
type ColumnReader = (vector: DuckDBVector, rows: unknown[][], column: number, count: number) => void;

/** Turns one chunk into row arrays of normalized values. */
export type ChunkRowReader = (chunk: DuckDBDataChunk) => unknown[][];

/** What every DuckDB decimal vector offers besides `getItem`: the unscaled integer. */
interface ScaledVector {
  getScaledValue(index: number): number | bigint | null;
}

const direct: ColumnReader = (vector, rows, column, count) => {
  for (let r = 0; r < count; r++) rows[r]![column] = vector.getItem(r);
};

const date: ColumnReader = (vector, rows, column, count) => {
  for (let r = 0; r < count; r++) {
    const value = vector.getItem(r) as { readonly days: number } | null;
    rows[r]![column] = value === null ? null : new Date(value.days * MS_PER_DAY);
  }
};

function decimal(scale: number): ColumnReader {
  return (vector, rows, column, count) => {
    const scaled = vector as unknown as ScaledVector;
    for (let r = 0; r < count; r++) {
      const unscaled = scaled.getScaledValue(r);
      if (unscaled === null) rows[r]![column] = null;
      else {
        const exact = typeof unscaled === "bigint" ? unscaled : BigInt(unscaled);
        rows[r]![column] = scale === 0 ? exact : new Decimal(exact, scale);
      }
    }
  };
}

function generic(type: DuckDBType): ColumnReader {
  return (vector, rows, column, count) => {
    for (let r = 0; r < count; r++) rows[r]![column] = normalizingConverter(vector.getItem(r), type, normalizingConverter);
  };
}

function readerFor(type: DuckDBType): ColumnReader {
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

/** Plans the readers for a result's column types (once per result). */
export function planChunkRows(types: readonly DuckDBType[]): ChunkRowReader {
  const readers = types.map(readerFor);
  const width = readers.length;
  return (chunk) => {
    const count = chunk.rowCount;
    const rows = new Array<unknown[]>(count);
    for (let r = 0; r < count; r++) rows[r] = new Array<unknown>(width);
    for (let c = 0; c < width; c++) readers[c]!(chunk.getColumnVector(c), rows, c, count);
    return rows;
  };
}
