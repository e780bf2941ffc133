/**
 * DuckDB results as the driver contract's `QueryResult` and `ResultStream`: materialized readers,
 * results the semantic layer computed itself, and streamed results read chunk by chunk with the
 * row (or column) readers planned once per result.
 */
import type { DuckDBResult, DuckDBResultReader } from "@duckdb/node-api";
import type { ColumnInfo, QueryResult, ResultStream } from "../../driver/query-result.js";
import { OperationalError } from "../../errors.js";
import type { RawColumn } from "../../semantic/semantic-layer.js";
import { planChunkColumns, planChunkRows } from "./duckdb-chunk-rows.js";
import { mapDuckDBError } from "./duckdb-errors.js";
import { planTypedColumns } from "./duckdb-typed-columns.js";
import { kindOfType, kindOfTypeText, normalizeByKind, normalizingConverter } from "./duckdb-values.js";

/** Runs one driver call as a tracked operation of the connection (so interrupt() can reach it). */
/** The result of a statement that returns nothing (transaction control, DDL through the layer). */
export const EMPTY_RESULT: QueryResult = Object.freeze({
  columns: Object.freeze([]),
  rows: Object.freeze([]) as unknown as unknown[][],
});

export type RunOperation = <T>(fn: () => Promise<T>) => Promise<T>;

/** Wraps a streamed DuckDB result: chunks are fetched as the caller iterates. */
export function streamOfResult(result: DuckDBResult, operation: RunOperation): ResultStream {
  const types = result.columnTypes();
  const columns = types.map((type, i) => ({
    name: result.columnName(i),
    type: type.toString(),
    kind: kindOfType(type),
  }));
  let readChunk = planChunkRows(types);
  let closed = false;
  // A statement that fails while its result streams just ends the stream: @duckdb/node-api
  // does not surface the error (duckdb_result_error is not bound). But duckdb_result_is_streaming
  // answers false for a result that holds an error, so a streamed result that ends no longer
  // streaming was cut off: no probe statement needed, in or outside a transaction.
  function assertStreamCompleted(): void {
    if (!result.isStreaming) {
      throw new OperationalError(
        "The statement failed while its result was being read; the result is incomplete (DuckDB ended the stream without reporting the cause)",
      );
    }
  }
  async function* chunks(): AsyncGenerator<unknown[][]> {
    while (!closed) {
      let chunk;
      try {
        chunk = await operation(() => result.fetchChunk());
      } catch (error) {
        throw mapDuckDBError(error);
      }
      if (chunk === null || chunk.rowCount === 0) {
        assertStreamCompleted();
        return;
      }
      yield readChunk(chunk);
    }
  }
  const iterator = chunks();
  return {
    columns,
    [Symbol.asyncIterator]: () => iterator,
    preferColumns: (options) => {
      readChunk = options?.typedArrays === true ? planTypedColumns(types) : planChunkColumns(types);
      return true;
    },
    close: async () => {
      closed = true;
      await iterator.return(undefined);
    },
  };
}

export function readerToResult(reader: DuckDBResultReader): QueryResult {
  const columns: ColumnInfo[] = reader
    .columnTypes()
    .map((type, i) => ({ name: reader.columnName(i), type: type.toString(), kind: kindOfType(type) }));
  return { columns, rows: reader.convertRows(normalizingConverter) };
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
