/**
 * Starts one statement on a checked-out connection and wraps its stream in a `Cursor`. The cursor owns
 * the connection from here on: it is released when the cursor closes, and also when opening fails
 * (the original error is rethrown unchanged) or is cancelled (`QueryCancelledError`).
 */
import type { PooledConnection } from "../engine/pooled-connection.js";
import type { StreamOptions } from "../driver/database-connection.js";
import type { ResultStream } from "../driver/query-result.js";
import { CancelWatch } from "../driver/cancellation.js";
import { Cursor } from "./cursor.js";

export interface OpenCursorOptions {
  /** Aborting interrupts the running statement; the pending open/read rejects with `QueryCancelledError("aborted")`. */
  readonly signal?: AbortSignal | undefined;
  /** Deadline for the whole result, from now: past it the statement is interrupted (`QueryCancelledError("timeout")`). */
  readonly timeoutMs?: number | undefined;
  /** Where the query was executed (for the warning about a cursor never closed); default: here. */
  readonly openedAt?: Error | undefined;
}

export interface CursorQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /**
   * The result's column names by position (a semantic query's field names). Rows key by these
   * whatever the warehouse calls its columns: an account that folds quoted aliases to upper case,
   * or facts that take no alias, still yield rows keyed by field name.
   */
  readonly columnNames?: readonly string[] | undefined;
  /** Per-statement options the driver applies (backend A's QUERY_TAG, backend C's materialization routing). */
  readonly statement?: StreamOptions | undefined;
}

type Settled = { ok: true; stream: ResultStream } | { ok: false; error: unknown };

async function releaseQuietly(connection: PooledConnection): Promise<void> {
  try {
    await connection.release();
  } catch {
    // keep the error that made us give the connection back
  }
}

/**
 * `openCursor` for a query nothing can cancel, on a connection that may still be being checked out.
 * `then` chains, no async frame (this runs once per query on the main path); a failure to start the
 * statement gives the connection back before the original error surfaces.
 */
export function openUncancellable<Row = Record<string, unknown>>(
  connection: PooledConnection | Promise<PooledConnection>,
  query: CursorQuery,
  openedAt: Error | undefined,
): Promise<Cursor<Row>> {
  const open = (checkedOut: PooledConnection): Promise<Cursor<Row>> => {
    let started: Promise<ResultStream>;
    try {
      started = checkedOut.stream(query.sql, query.parameters, query.statement);
    } catch (error) {
      started = Promise.reject(error);
    }
    return started.then(
      (stream) => new Cursor<Row>(checkedOut, named(stream, query.columnNames), undefined, openedAt),
      (error: unknown) => releaseQuietly(checkedOut).then(() => Promise.reject(error)),
    );
  };
  return connection instanceof Promise ? connection.then(open) : open(connection);
}

export async function openCursor<Row = Record<string, unknown>>(
  connection: PooledConnection,
  query: CursorQuery,
  options: OpenCursorOptions = {},
): Promise<Cursor<Row>> {
  // Nothing can cancel it: no watch, and the cursor reads without racing a cancellation.
  if (options.signal === undefined && options.timeoutMs === undefined) {
    return openUncancellable<Row>(connection, query, options.openedAt);
  }

  let watch: CancelWatch;
  try {
    CancelWatch.validateTimeout(options.timeoutMs);
    watch = new CancelWatch(() => connection.interrupt(), options);
    // An already-aborted signal: fire at once (its listener would never run) and run nothing.
    if (options.signal?.aborted === true) {
      watch.dispose();
      throw watch.errorForAbortedSignal();
    }
  } catch (error) {
    await releaseQuietly(connection);
    throw error;
  }

  // new Promise(...) also catches a driver that throws synchronously.
  const settled: Promise<Settled> = new Promise<ResultStream>((resolve) =>
    resolve(connection.stream(query.sql, query.parameters, query.statement)),
  ).then(
    (stream) => ({ ok: true, stream }),
    (error: unknown) => ({ ok: false, error }),
  );
  let outcome = await Promise.race([settled, watch.fired.then(() => undefined)]);
  if (outcome === undefined) outcome = await settled; // interrupted: wait for the driver to give up
  if (watch.reason !== undefined) {
    watch.dispose();
    if (outcome.ok) {
      await outcome.stream.close().catch(() => undefined);
    }
    // In the background: the deadline is the caller's, while a driver may still be ending the
    // cancelled statement (its reset waits for that before the pool hands the connection out again).
    void releaseQuietly(connection);
    throw watch.error(outcome.ok ? undefined : outcome.error);
  }
  if (!outcome.ok) {
    watch.dispose();
    await releaseQuietly(connection);
    throw outcome.error;
  }
  return new Cursor<Row>(connection, named(outcome.stream, query.columnNames), watch, options.openedAt);
}

/** The stream with its columns named by position; the same stream when the names already agree. */
export function named(stream: ResultStream, names: readonly string[] | undefined): ResultStream {
  const columns = stream.columns;
  if (names === undefined || names.length !== columns.length || sameNames(columns, names)) return stream;
  const renamed = Object.freeze(columns.map((c, i) => ({ ...c, name: names[i]! })));
  const preferColumns = stream.preferColumns?.bind(stream);
  return {
    columns: renamed,
    servedFrom: stream.servedFrom,
    close: () => stream.close(),
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    ...(preferColumns === undefined ? {} : { preferColumns }),
    ...(stream.queryId === undefined ? {} : { queryId: stream.queryId }),
  };
}

/** Whether `columns` are named `names` (a loop: no closure per query, as `every()` would take). */
function sameNames(columns: readonly { readonly name: string }[], names: readonly string[]): boolean {
  for (let i = 0; i < names.length; i++) if (columns[i]!.name !== names[i]) return false;
  return true;
}
