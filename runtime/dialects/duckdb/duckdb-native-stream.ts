/**
 * A prepared statement's streamed execution and its chunk reads straight from `@duckdb/node-bindings`,
 * wrapped in node-api's own `DuckDBResult` and `DuckDBDataChunk`. node-api's `stream()` and
 * `fetchChunk()` are async functions that only await the binding and wrap its answer: their frames
 * were a tenth of the bytes a small query allocates (three per query). Same native calls, same
 * objects; a node-api whose objects do not carry the native handle where this expects it is used
 * through its own methods.
 */
import type { DuckDBDataChunk, DuckDBPreparedStatement, DuckDBResult } from "@duckdb/node-api";
import { duckdb } from "./duckdb-api.js";
import { duckdbBindings } from "./duckdb-bindings.js";

/** The native result handle (opaque; node-api keeps it in a protected field). */
type NativeResult = { readonly __brand: "duckdb_result" };
type NativeChunk = DuckDBDataChunk["chunk"];

interface StreamingBindings {
  execute_prepared_streaming(prepared: unknown): Promise<NativeResult>;
  fetch_chunk(result: NativeResult): Promise<NativeChunk | null>;
}

function bindings(): StreamingBindings {
  return duckdbBindings() as unknown as StreamingBindings;
}

const toResult = (native: NativeResult): DuckDBResult =>
  new (duckdb().DuckDBResult)(native as unknown as ConstructorParameters<typeof DuckDBResult>[0]);
const toChunk = (native: NativeChunk | null): DuckDBDataChunk | null =>
  native === null ? null : new (duckdb().DuckDBDataChunk)(native);

/** `prepared.stream()`: the statement's streamed execution. */
export function streamPrepared(prepared: DuckDBPreparedStatement): Promise<DuckDBResult> {
  const native = (prepared as unknown as { readonly prepared_statement?: unknown }).prepared_statement;
  if (native === undefined) return prepared.stream();
  try {
    return bindings().execute_prepared_streaming(native).then(toResult);
  } catch (error) {
    return Promise.reject(error); // as node-api's async method would
  }
}

/** `result.fetchChunk()`: the next chunk, or null at the end. */
export function fetchChunk(result: DuckDBResult): Promise<DuckDBDataChunk | null> {
  const native = (result as unknown as { readonly result?: NativeResult }).result;
  if (native === undefined) return result.fetchChunk();
  try {
    return bindings().fetch_chunk(native).then(toChunk);
  } catch (error) {
    return Promise.reject(error);
  }
}
