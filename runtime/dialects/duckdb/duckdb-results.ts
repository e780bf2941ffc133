/**
 * DuckDB results as the driver contract's `QueryResult` and `ResultStream`: materialized readers,
 * results the semantic layer computed itself, and streamed results read chunk by chunk with the
 * row (or column) readers planned once per result.
 */
import type { DuckDBDataChunk, DuckDBResult, DuckDBType } from "@duckdb/node-api";
import type {
  ColumnInfo,
  QueryResult,
  ReadFailureObserver,
  ResultStream,
  ServedFrom,
} from "../../driver/query-result.js";
import { OperationalError } from "../../errors.js";
import type { RawColumn } from "../../semantic/semantic-layer.js";
import { planChunkColumns, type ChunkReader } from "./duckdb-chunk-rows.js";
import { planResult, sharedPlan, type ResultPlan } from "./duckdb-result-plan.js";
import { mapDuckDBError } from "./duckdb-errors.js";
import { fetchChunk } from "./duckdb-native-stream.js";
import { planTypedColumns } from "./duckdb-typed-columns.js";
import { kindOfTypeText, normalizeByKind } from "./duckdb-values.js";

/** The result of a statement that returns nothing (transaction control, DDL through the layer). */
export const EMPTY_RESULT: QueryResult = Object.freeze({
  columns: Object.freeze([]),
  rows: Object.freeze([]) as unknown as unknown[][],
});

/** Counts the driver calls in flight on a connection, so interrupt() can reach them. */
export interface OperationCounter {
  operationStarted(): void;
  operationSettled(): void;
  /** Interrupts the connection's running call (repeated until the calls in flight settle). */
  interrupt(): void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
const DONE_PROMISE: Promise<IteratorReturnResult<undefined>> = Promise.resolve(DONE);
const DONE_CLOSING: Promise<void> = Promise.resolve();
const ignore = (): void => undefined;
/** DuckDB's own error for an interrupted statement (also what DuckDBOperations throws for one not yet started). */
const isInterrupt = (error: unknown): boolean => error instanceof Error && error.message.startsWith("INTERRUPT Error");

/**
 * A streamed DuckDB result: chunks are fetched as the caller iterates. One object per result, its
 * own iterator, no closures: this runs once per query on the main path.
 *
 * Once a reader asks for columns (`preferColumns()`: the streamed and Arrow reads, and `fetchAllRows`
 * from the first row: the reads in bulk), the stream reads one chunk ahead: DuckDB fetches the next chunk on its worker thread while
 * the caller converts and iterates the current one, instead of after. At most one native chunk is
 * held ahead (bounded memory). `close()` (a `break`, a cut HTTP stream) interrupts that fetch if it is
 * still running — nobody will read its chunk, and a slow one would hold the connection — and waits for it
 * to end, so the connection is never handed on with a fetch still running on it. `fetchOne`,
 * `fetchMany` (and `fetchAllRows` after them) and `into` take row arrays, fetched on demand.
 */
class DuckDBResultStream implements ResultStream, AsyncIterator<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
  readonly servedFrom: Exclude<ServedFrom, "cache"> | undefined;
  readonly #result: DuckDBResult;
  readonly #types: readonly DuckDBType[];
  readonly #operations: OperationCounter;
  #readChunk: ChunkReader;
  #closed = false;
  #fetching: Promise<IteratorResult<unknown[][], undefined>> | undefined;
  /** The next chunk's fetch, started while the caller reads the current one (read-ahead only). */
  #ahead: Promise<DuckDBDataChunk | null> | undefined;
  #readAhead = false;
  /**
   * Whether DuckDB streams the result. Statements without a row result (SET, CREATE, INSERT ...)
   * come back materialized even when streamed: for them "not streaming" at the end is no cut-off.
   */
  readonly #streamed: boolean;
  /** Native fetches started and not yet settled. */
  #running = 0;
  #observer: ReadFailureObserver | undefined;

  constructor(
    result: DuckDBResult,
    operations: OperationCounter,
    servedFrom: Exclude<ServedFrom, "cache"> | undefined,
    plan: ResultPlan,
  ) {
    this.columns = plan.columns;
    this.servedFrom = servedFrom;
    this.#result = result;
    this.#types = plan.types;
    this.#operations = operations;
    this.#readChunk = plan.readRows;
    this.#streamed = result.isStreaming;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown[][]> {
    return this;
  }

  /**
   * The next chunk. A `then` per chunk instead of an async frame (this runs per chunk of every
   * query); a failure, also a synchronous one of the driver, rejects the returned promise.
   */
  next(): Promise<IteratorResult<unknown[][], undefined>> {
    // One fetch at a time, as an async generator would queue them.
    if (this.#fetching !== undefined) return this.#fetching.then(this.#nextAfter, this.#nextAfter);
    if (this.#closed) return DONE_PROMISE;
    const fetching = this.#ahead ?? this.#fetch();
    this.#ahead = undefined;
    const read = fetching.then(this.#fetched, this.#fetchFailed);
    this.#fetching = read;
    return read;
  }

  /** Starts one native fetch, counted as an operation in flight until it settles. */
  #fetch(): Promise<DuckDBDataChunk | null> {
    this.#operations.operationStarted();
    this.#running++;
    let fetching: Promise<DuckDBDataChunk | null>;
    try {
      fetching = fetchChunk(this.#result);
    } catch (error) {
      fetching = Promise.reject(error);
    }
    return fetching.then(this.#settled, this.#settledWithError);
  }

  readonly #settled = (chunk: DuckDBDataChunk | null): DuckDBDataChunk | null => {
    this.#running--;
    this.#operations.operationSettled();
    return chunk;
  };

  readonly #settledWithError = (error: unknown): never => {
    this.#running--;
    this.#operations.operationSettled();
    throw error;
  };

  readonly #nextAfter = (): Promise<IteratorResult<unknown[][], undefined>> => this.next();

  readonly #fetched = (chunk: DuckDBDataChunk | null): IteratorResult<unknown[][], undefined> => {
    this.#fetching = undefined;
    try {
      if (chunk === null || chunk.rowCount === 0) {
        this.#closed = true;
        this.#assertCompleted();
        return DONE;
      }
      if (this.#readAhead && !this.#closed) {
        const ahead = this.#fetch();
        ahead.catch(ignore); // surfaces when the caller reads it (next()), or is noted by close()
        this.#ahead = ahead;
      }
      return { done: false, value: this.#readChunk(chunk) };
    } catch (error) {
      this.#observer?.noteError(error);
      throw error;
    }
  };

  readonly #fetchFailed = (error: unknown): never => {
    this.#fetching = undefined;
    throw this.#failed(error);
  };

  /** Ends the stream after a failed fetch; the error as the driver contract reports it (observer first). */
  #failed(error: unknown): unknown {
    this.#closed = true;
    const mapped = mapDuckDBError(error);
    this.#observer?.noteError(mapped);
    return mapped;
  }

  observeReadFailures(observer: ReadFailureObserver): void {
    this.#observer = observer;
  }

  async return(): Promise<IteratorResult<unknown[][], undefined>> {
    await this.close();
    return DONE;
  }

  preferColumns(options?: { readonly typedArrays?: boolean }): boolean {
    this.#readChunk = options?.typedArrays === true ? planTypedColumns(this.#types) : planChunkColumns(this.#types);
    this.#readAhead = true;
    return true;
  }

  /**
   * Ends the stream. A chunk fetched ahead is waited for: interrupted first while DuckDB still computes
   * it (the interrupt it causes is no failure); a failure of its own is reported, as a read's would be.
   */
  close(): Promise<void> {
    this.#closed = true;
    const ahead = this.#ahead;
    if (ahead === undefined) return DONE_CLOSING;
    this.#ahead = undefined;
    if (this.#running === 0) return ahead.then(ignore, this.#closedAfterFailure);
    this.#operations.interrupt();
    return ahead.then(ignore, (error: unknown) => {
      if (!isInterrupt(error)) this.#closedAfterFailure(error);
    });
  }

  readonly #closedAfterFailure = (error: unknown): void => void this.#failed(error);

  // A statement that fails while its result streams just ends the stream: @duckdb/node-api
  // does not surface the error (duckdb_result_error is not bound). But duckdb_result_is_streaming
  // answers false for a result that holds an error, so a streamed result that ends no longer
  // streaming was cut off: no probe statement needed, in or outside a transaction.
  #assertCompleted(): void {
    if (this.#streamed && !this.#result.isStreaming) {
      throw new OperationalError(
        "The statement failed while its result was being read; the result is incomplete (DuckDB ended the stream without reporting the cause)",
      );
    }
  }
}

/**
 * Wraps a streamed DuckDB result: chunks are fetched as the caller iterates. `statement`: the cached
 * prepared statement it comes from, whose results share one column plan (`sharedPlan`).
 */
export function streamOfResult(
  result: DuckDBResult,
  operations: OperationCounter,
  servedFrom?: Exclude<ServedFrom, "cache">,
  statement?: object,
): ResultStream {
  const plan = statement === undefined ? planResult(result) : sharedPlan(statement, result);
  return new DuckDBResultStream(result, operations, servedFrom, plan);
}

/** Normalizes a result the semantic layer computed itself, using its declared column types. */
export function normalizeRawResult(rawColumns: readonly RawColumn[], rawRows: readonly unknown[][]): QueryResult {
  const columns: ColumnInfo[] = rawColumns.map((c) => ({ name: c.name, type: c.type, kind: kindOfTypeText(c.type) }));
  const rows = rawRows.map((row) => columns.map((column, i) => normalizeByKind(row[i], column.kind)));
  return { columns, rows };
}

/** A stream over an already-read result (one chunk). */
export function resultStream(result: QueryResult): ResultStream {
  let done = false;
  return {
    columns: result.columns,
    async *[Symbol.asyncIterator]() {
      if (!done && result.rows.length > 0) {
        done = true;
        yield result.rows as unknown[][];
      }
    },
    close: async () => {
      done = true;
    },
  };
}
