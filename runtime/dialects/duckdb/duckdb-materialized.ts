/**
 * Whole results read with one native round trip: the statement's materialized execution (DuckDB
 * holds the whole result when it answers), then its chunks taken synchronously (`result_get_chunk`
 * on the materialized result, node-api's `getChunk`). node-api's `runAndReadAll()` awaits one
 * `fetch_chunk` per chunk plus one for the end instead, each a libuv thread-pool hop and an
 * event-loop turn: three round trips for `SELECT 1`, where this makes one. For what reads a result
 * whole (`conn.all()`, `execute()`, the semantic layer's own SQL); a cursor streams.
 */
import type { DuckDBMaterializedResult, DuckDBPreparedStatement, DuckDBValue } from "@duckdb/node-api";
import type { QueryResult } from "../../driver/query-result.js";
import type { RawColumn } from "../../semantic/semantic-layer.js";
import { duckdb } from "./duckdb-api.js";
import { duckdbBindings } from "./duckdb-bindings.js";
import { planResult, sharedPlan } from "./duckdb-result-plan.js";

/** The native result handle (opaque; node-api keeps it in a protected field). */
type NativeResult = { readonly __brand: "duckdb_result" };

interface MaterializingBindings {
  execute_prepared(prepared: unknown): Promise<NativeResult>;
}

const toMaterialized = (native: NativeResult): DuckDBMaterializedResult =>
  new (duckdb().DuckDBMaterializedResult)(
    native as unknown as ConstructorParameters<typeof DuckDBMaterializedResult>[0],
  );

/** node-api's native handle of a prepared statement (a protected field), if this version has it. */
const nativeOf = (prepared: DuckDBPreparedStatement): unknown =>
  (prepared as unknown as { readonly prepared_statement?: unknown }).prepared_statement;

/** The binding's materialized execution of a native prepared statement; a synchronous throw rejects. */
function executeNative(native: unknown): Promise<NativeResult> {
  try {
    return (duckdbBindings() as unknown as MaterializingBindings).execute_prepared(native);
  } catch (error) {
    return Promise.reject(error); // as node-api's async method would
  }
}

/**
 * `prepared.run()`: the statement's materialized execution, straight from the binding (node-api's
 * async method only awaits it and wraps the answer: one async frame less per query).
 */
export function runPrepared(prepared: DuckDBPreparedStatement): Promise<DuckDBMaterializedResult> {
  const native = nativeOf(prepared);
  return native === undefined ? prepared.run() : executeNative(native).then(toMaterialized);
}

/**
 * `runPrepared(prepared).then(read, failed)` with one promise and one microtask less: the native
 * result is wrapped and read in the binding's own callback (the cursor's and `conn.all()`'s main path
 * take this once per query). `failed` sees what `runPrepared` would have rejected with; what `read`
 * throws rejects the answer, as after `then`.
 */
export function readPrepared<T>(
  prepared: DuckDBPreparedStatement,
  read: (result: DuckDBMaterializedResult) => T,
  failed: (error: unknown) => never,
): Promise<T> {
  const native = nativeOf(prepared);
  if (native === undefined) return prepared.run().then(read, failed);
  return executeNative(native).then((answer) => {
    let result: DuckDBMaterializedResult;
    try {
      result = toMaterialized(answer);
    } catch (error) {
      return failed(error);
    }
    return read(result);
  }, failed);
}

/**
 * The result as the driver contract's `QueryResult`, values normalized by the column plan the
 * streamed path uses; `statement`: the cached prepared statement it came from, whose results share
 * one plan (`sharedPlan`).
 */
export function materializedResult(result: DuckDBMaterializedResult, statement?: object): QueryResult {
  const plan = statement === undefined ? planResult(result) : sharedPlan(statement, result);
  const count = result.chunkCount;
  let rows: unknown[][];
  if (count === 1) rows = plan.readRows(result.getChunk(0));
  else {
    rows = [];
    for (let i = 0; i < count; i++) {
      for (const row of plan.readRows(result.getChunk(i))) rows.push(row);
    }
  }
  return { columns: plan.columns, rows };
}

/** The result with DuckDB's own values (not normalized), for the semantic layer's `SqlSession.query`. */
export function rawResult(result: DuckDBMaterializedResult): { columns: RawColumn[]; rows: unknown[][] } {
  const columns = result.columnTypes().map((type, i) => ({ name: result.columnName(i), type: type.toString() }));
  const rows: DuckDBValue[][] = [];
  const count = result.chunkCount;
  for (let i = 0; i < count; i++) result.getChunk(i).appendToRows(rows);
  return { columns, rows };
}
