/**
 * Columnar chunks for `preferColumns({ typedArrays: true })`: fixed-width DuckDB vectors are handed
 * over as typed arrays plus their validity bits (`TypedColumn`) instead of one JavaScript value per
 * row; other columns are read per value as in duckdb-chunk-rows.
 *
 * One copy only: the binding copies each vector's data and validity into a JS-owned buffer
 * (`Napi::Buffer::NewOrCopy`, built without external buffers), and the typed arrays are views of
 * those, valid however long they are kept. The bytes come from the C API directly (duckdb-bindings.ts):
 * node-api's typed vector, logical-type and validity objects per column and chunk cost more than
 * the copy. Narrow integers and floats stay narrow; the Arrow sinks widen them while copying.
 */
import type { DuckDBDataChunk, DuckDBType } from "@duckdb/node-api";
import type { TypedColumn } from "../../driver/query-result.js";
import { duckdb } from "./duckdb-api.js";
import { duckdbBindings, type DuckDBBindings } from "./duckdb-bindings.js";
import { plannedVector, readerFor, type ChunkReader } from "./duckdb-chunk-rows.js";

/** Reads column `column` of a chunk of `count` rows. */
type Reader = (chunk: DuckDBDataChunk, column: number, count: number) => unknown;
type ValuesArray = TypedColumn["values"];
type ArrayKind = (new (buffer: ArrayBuffer, byteOffset: number, length: number) => ValuesArray) & {
  readonly BYTES_PER_ELEMENT: number;
};

/** `bytes` as `count` values of `Kind` (a view; a copy only if the bytes were misaligned). */
function valuesOf(bytes: Uint8Array, count: number, Kind: ArrayKind): ValuesArray {
  const size = Kind.BYTES_PER_ELEMENT;
  if (bytes.byteOffset % size === 0) return new Kind(bytes.buffer as ArrayBuffer, bytes.byteOffset, count);
  return new Kind(bytes.slice(0, count * size).buffer, 0, count);
}

function typed(api: DuckDBBindings, Kind: ArrayKind): Reader {
  const size = Kind.BYTES_PER_ELEMENT;
  return (chunk, column, count): TypedColumn => {
    const vector = api.data_chunk_get_vector(chunk.chunk, column);
    // DuckDB's validity is 64-bit little-endian words: the same bits as Arrow's byte layout.
    const validity = api.vector_get_validity(vector, Math.ceil(count / 64) * 8);
    return {
      typed: true,
      values: valuesOf(api.vector_get_data(vector, count * size), count, Kind),
      validity: validity === null ? null : validity.subarray(0, Math.ceil(count / 8)),
      length: count,
    };
  };
}

function typedReaderFor(type: DuckDBType): Reader | undefined {
  const { DuckDBTypeId } = duckdb();
  const api = duckdbBindings();
  switch (type.typeId) {
    case DuckDBTypeId.TINYINT:
      return typed(api, Int8Array);
    case DuckDBTypeId.UTINYINT:
      return typed(api, Uint8Array);
    case DuckDBTypeId.SMALLINT:
      return typed(api, Int16Array);
    case DuckDBTypeId.USMALLINT:
      return typed(api, Uint16Array);
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.DATE: // days since 1970-01-01, as Arrow's DateDay
      return typed(api, Int32Array);
    case DuckDBTypeId.BIGINT:
      return typed(api, BigInt64Array);
    case DuckDBTypeId.FLOAT:
      return typed(api, Float32Array);
    case DuckDBTypeId.DOUBLE:
      return typed(api, Float64Array);
    case DuckDBTypeId.DECIMAL:
      // Stored as 16-, 32- or 64-bit unscaled integers up to width 18; wider ones need 128 bits.
      // Scale 0 is the bigint kind, whose typed values are 64-bit.
      if (type.width > 18) return undefined;
      if (type.width > 9) return typed(api, BigInt64Array);
      if (type.scale === 0) return undefined;
      if (type.width <= 4) return typed(api, Int16Array);
      return typed(api, Int32Array);
    default:
      return undefined;
  }
}

/** Plans a result's columns once: typed arrays where the type allows, normalized values elsewhere. */
export function planTypedColumns(types: readonly DuckDBType[]): ChunkReader {
  const readers = types.map((type): Reader => {
    const typedReader = typedReaderFor(type);
    if (typedReader !== undefined) return typedReader;
    const read = readerFor(type);
    return (chunk, column, count) => read(plannedVector(chunk, column, count, type), count);
  });
  return (chunk) => {
    const count = chunk.rowCount;
    return readers.map((read, c) => read(chunk, c, count)) as unknown[][];
  };
}
