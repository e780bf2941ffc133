/**
 * Columnar chunks for `preferColumns({ typedArrays: true })`: fixed-width DuckDB vectors are copied
 * as typed arrays plus their validity bits (`TypedColumn`), one memory copy per column and chunk
 * instead of one JavaScript value per row; other columns are read per value as in duckdb-chunk-rows.
 * Copies, not views: a view would point into the chunk's native memory, freed with the chunk.
 */
import type { DuckDBType, DuckDBVector } from "@duckdb/node-api";
import type { TypedColumn } from "../../driver/query-result.js";
import { duckdb } from "./duckdb-api.js";
import { readerFor, type ChunkReader } from "./duckdb-chunk-rows.js";

type Reader = (vector: DuckDBVector, count: number) => unknown;
type ValuesArray = TypedColumn["values"];

/** What node-api's fixed-width vectors hold (the typed items, or a DataView for decimals). */
interface RawVector {
  readonly items?: ArrayBufferView;
  readonly dataView?: DataView;
  readonly validity: { readonly data: BigUint64Array | null; readonly offset: number };
}

/** The vector's bytes (`count` values of `bytesPer` bytes), copied into a fresh, aligned buffer. */
function copiedBytes(vector: DuckDBVector, count: number, bytesPer: number): ArrayBuffer {
  const raw = vector as unknown as RawVector;
  const view = raw.items ?? raw.dataView!;
  return new Uint8Array(view.buffer, view.byteOffset, count * bytesPer).slice().buffer;
}

function validityOf(vector: DuckDBVector, count: number): Uint8Array | null {
  const { data, offset } = (vector as unknown as RawVector).validity;
  if (data === null) return null;
  if (offset !== 0) {
    // A sliced vector (never from a fetched chunk): realign bit by bit.
    const bits = new Uint8Array(Math.ceil(count / 8));
    for (let i = 0; i < count; i++) {
      const bit = offset + i;
      if ((data[bit >> 6]! >> BigInt(bit & 63)) & 1n) bits[i >> 3]! |= 1 << (i & 7);
    }
    return bits;
  }
  return new Uint8Array(data.buffer, data.byteOffset, Math.ceil(count / 8)).slice();
}

/** A reader copying `count` values of `bytesPer` bytes, widened to 32 or 64 bits when narrower. */
function typed(
  bytesPer: number,
  view: (buffer: ArrayBuffer) => ArrayBufferView,
  widen?: (narrow: ArrayBufferView, count: number) => ValuesArray,
): Reader {
  return (vector, count): TypedColumn => {
    const narrow = view(copiedBytes(vector, count, bytesPer));
    const values = widen === undefined ? (narrow as ValuesArray) : widen(narrow, count);
    return { typed: true, values, validity: validityOf(vector, count), length: count };
  };
}

const toInt32 = (narrow: ArrayBufferView, count: number): Int32Array => {
  const out = new Int32Array(count);
  out.set(narrow as unknown as ArrayLike<number>);
  return out;
};
const toFloat64 = (narrow: ArrayBufferView, count: number): Float64Array => {
  const out = new Float64Array(count);
  out.set(narrow as unknown as ArrayLike<number>);
  return out;
};

function typedReaderFor(type: DuckDBType): Reader | undefined {
  const { DuckDBTypeId } = duckdb();
  switch (type.typeId) {
    case DuckDBTypeId.TINYINT:
      return typed(1, (b) => new Int8Array(b), toInt32);
    case DuckDBTypeId.UTINYINT:
      return typed(1, (b) => new Uint8Array(b), toInt32);
    case DuckDBTypeId.SMALLINT:
      return typed(2, (b) => new Int16Array(b), toInt32);
    case DuckDBTypeId.USMALLINT:
      return typed(2, (b) => new Uint16Array(b), toInt32);
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.DATE: // days since 1970-01-01, as Arrow's DateDay
      return typed(4, (b) => new Int32Array(b));
    case DuckDBTypeId.BIGINT:
      return typed(8, (b) => new BigInt64Array(b));
    case DuckDBTypeId.FLOAT:
      return typed(4, (b) => new Float32Array(b), toFloat64);
    case DuckDBTypeId.DOUBLE:
      return typed(8, (b) => new Float64Array(b));
    case DuckDBTypeId.DECIMAL:
      // Stored as 16-, 32- or 64-bit unscaled integers up to width 18; wider ones need 128 bits.
      // Scale 0 is the bigint kind, whose typed values are 64-bit.
      if (type.width > 18) return undefined;
      if (type.width > 9) return typed(8, (b) => new BigInt64Array(b));
      if (type.scale === 0) return undefined;
      if (type.width <= 4) return typed(2, (b) => new Int16Array(b), toInt32);
      return typed(4, (b) => new Int32Array(b));
    default:
      return undefined;
  }
}

/** Plans a result's columns once: typed arrays where the type allows, normalized values elsewhere. */
export function planTypedColumns(types: readonly DuckDBType[]): ChunkReader {
  const readers = types.map((type): Reader => typedReaderFor(type) ?? readerFor(type));
  return (chunk) => {
    const count = chunk.rowCount;
    return readers.map((read, c) => read(chunk.getColumnVector(c), count)) as unknown[][];
  };
}
