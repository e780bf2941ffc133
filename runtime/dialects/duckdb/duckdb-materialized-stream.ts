/**
 * A cursor's stream over a result DuckDB computed whole before answering (`execute_prepared`, see
 * duckdb-materialized.ts): one native round trip, then every chunk taken synchronously
 * (`getChunk`), converted by the same column plan a streamed result uses. Which statements run
 * this way is `computedWhole()`: those whose answer DuckDB must hold whole before its first row
 * anyway (an aggregate, a DISTINCT), so holding it materialized at most doubles what the statement
 * held; everything else streams (duckdb-results.ts).
 *
 * Nothing is read ahead (nothing is left to fetch), `close()` has nothing to wait for, and the rows
 * can be taken at once (`drain()`: no promise per chunk).
 */
import type { DuckDBMaterializedResult, DuckDBType } from "@duckdb/node-api";
import type { StreamOptions } from "../../driver/database-connection.js";
import type { ColumnInfo, ReadFailureObserver, ResultStream, ServedFrom } from "../../driver/query-result.js";
import { planChunkColumns, type ChunkReader } from "./duckdb-chunk-rows.js";
import { mapDuckDBError } from "./duckdb-errors.js";
import { planResult, sharedPlan } from "./duckdb-result-plan.js";
import { planTypedColumns } from "./duckdb-typed-columns.js";

/**
 * Whether the statement a cursor streams is one whose whole answer DuckDB computes before its first
 * row: a semantic query without facts (metrics: GROUP BY or a global aggregate; dimensions alone:
 * SELECT DISTINCT), known from the request it was compiled from. Such a result has at most one row
 * per group, and DuckDB held every group already. A facts query, a hand-written statement and
 * anything else stream (their results may be far larger than what DuckDB holds while streaming).
 */
export function computedWhole(options: StreamOptions | undefined): boolean {
  const request = options?.semantic;
  return request !== undefined && request.facts.length === 0;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
const DONE_PROMISE: Promise<IteratorReturnResult<undefined>> = Promise.resolve(DONE);
const CLOSED: Promise<void> = Promise.resolve();

class DuckDBMaterializedStream implements ResultStream, AsyncIterator<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
  readonly servedFrom: Exclude<ServedFrom, "cache"> | undefined;
  #result: DuckDBMaterializedResult | undefined;
  readonly #types: readonly DuckDBType[];
  readonly #chunkCount: number;
  #next = 0;
  #readChunk: ChunkReader;
  #observer: ReadFailureObserver | undefined;

  constructor(
    result: DuckDBMaterializedResult,
    servedFrom: Exclude<ServedFrom, "cache"> | undefined,
    statement?: object,
  ) {
    const plan = statement === undefined ? planResult(result) : sharedPlan(statement, result);
    this.columns = plan.columns;
    this.servedFrom = servedFrom;
    this.#result = result;
    this.#types = plan.types;
    this.#chunkCount = result.chunkCount;
    this.#readChunk = plan.readRows;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown[][]> {
    return this;
  }

  /** The next chunk, read without a wait; a conversion failure rejects (reported to the observer first). */
  next(): Promise<IteratorResult<unknown[][], undefined>> {
    const result = this.#result;
    // An empty chunk never ends a materialized result early: skip it, as a streamed one ends on it.
    while (result !== undefined && this.#next < this.#chunkCount) {
      try {
        const chunk = result.getChunk(this.#next++);
        if (chunk.rowCount === 0) continue;
        return Promise.resolve({ done: false, value: this.#readChunk(chunk) });
      } catch (error) {
        return Promise.reject(this.#failed(error));
      }
    }
    this.#result = undefined;
    return DONE_PROMISE;
  }

  /** Every remaining row at once; the stream is then at its end. */
  drain(): unknown[][] {
    const result = this.#result;
    this.#result = undefined;
    const rows: unknown[][] = [];
    if (result === undefined) return rows;
    try {
      for (; this.#next < this.#chunkCount; this.#next++) {
        for (const row of this.#readChunk(result.getChunk(this.#next))) rows.push(row);
      }
    } catch (error) {
      throw this.#failed(error);
    }
    return rows;
  }

  preferColumns(options?: { readonly typedArrays?: boolean }): boolean {
    this.#readChunk = options?.typedArrays === true ? planTypedColumns(this.#types) : planChunkColumns(this.#types);
    return true;
  }

  observeReadFailures(observer: ReadFailureObserver): void {
    this.#observer = observer;
  }

  return(): Promise<IteratorResult<unknown[][], undefined>> {
    this.#result = undefined;
    return DONE_PROMISE;
  }

  /** Ends the stream: the result is let go (nothing runs on the connection any more). */
  close(): Promise<void> {
    this.#result = undefined;
    return CLOSED;
  }

  #failed(error: unknown): unknown {
    this.#result = undefined;
    const mapped = mapDuckDBError(error);
    this.#observer?.noteError(mapped);
    return mapped;
  }
}

/**
 * A cursor's stream over a materialized result; `statement`: the cached prepared statement it came
 * from, whose results share one column plan (`sharedPlan`).
 */
export function materializedStream(
  result: DuckDBMaterializedResult,
  servedFrom?: Exclude<ServedFrom, "cache">,
  statement?: object,
): ResultStream {
  return new DuckDBMaterializedStream(result, servedFrom, statement);
}
