/**
 * `@duckdb/node-bindings`, the C-API layer under `@duckdb/node-api` (its pinned dependency, resolved
 * from node-api's own location so both always agree), for the one place where node-api's vector
 * wrappers cost more than the read: typed columnar chunks (duckdb-typed-columns.ts) take a vector's
 * data and validity bytes straight from the C API instead of building a typed vector object, a
 * logical-type object and a validity object per column and chunk.
 */
import { createRequire } from "node:module";
import type { DuckDBDataChunk } from "@duckdb/node-api";
import { duckdb } from "./duckdb-api.js";

type NativeChunk = DuckDBDataChunk["chunk"];
/** A native vector handle (opaque). */
export type NativeVector = { readonly __brand: "duckdb_vector" };

/** The C-API calls used here (`duckdb_data_chunk_get_vector`, `duckdb_vector_get_data`, `duckdb_vector_get_validity`). */
export interface DuckDBBindings {
  data_chunk_get_vector(chunk: NativeChunk, columnIndex: number): NativeVector;
  /** A copy of the vector's first `byteCount` data bytes (the binding copies into a JS-owned buffer). */
  vector_get_data(vector: NativeVector, byteCount: number): Uint8Array;
  /** A copy of the validity words' first `byteCount` bytes, or null when every row is valid. */
  vector_get_validity(vector: NativeVector, byteCount: number): Uint8Array | null;
}

let bindings: DuckDBBindings | undefined;

export function duckdbBindings(): DuckDBBindings {
  if (bindings === undefined) {
    duckdb(); // a missing node-api is reported by its own name
    const fromNodeApi = createRequire(createRequire(import.meta.url).resolve("@duckdb/node-api"));
    bindings = fromNodeApi("@duckdb/node-bindings") as DuckDBBindings;
  }
  return bindings;
}
