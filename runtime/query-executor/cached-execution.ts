/**
 * One `execute()` through its engine's result cache: a live entry is served from memory (no
 * connection is checked out); otherwise the request joins the identical request in flight, or
 * starts one. A run reads the whole result into memory, measuring its bytes, and stores it unless
 * it failed or the database changed meanwhile. A result that outgrows the cache is not kept: the
 * request that started the run gets a cursor that replays what was read and streams the rest, and
 * the requests that joined it run their own statements. Cursors served by the cache say
 * `servedFrom: "cache"`; the request that started the run says where its statement was answered.
 */
import { CancelWatch } from "../driver/cancellation.js";
import type { ResultStream } from "../driver/query-result.js";
import { Cursor } from "../cursor/cursor.js";
import { named, type CursorQuery } from "../cursor/open-cursor.js";
import type { PooledConnection } from "../engine/pooled-connection.js";
import { cachedStream, type CachedResult } from "../result-cache/cached-result.js";
import { measureRows } from "../result-cache/measure-bytes.js";
import { rememberServed } from "../result-cache/served-json.js";
import { isTraced, queryChannel, traced } from "../observability/channels.js";
import type { BackendType } from "../dialects/dialects.js";
import type { CachedRequest } from "./cache-options.js";

export interface CachedExecution extends CursorQuery {
  readonly backend: BackendType;
  /** Checks out a connection of the engine; the signal ends the wait. */
  connect(signal: AbortSignal): Promise<PooledConnection>;
  /** Runs the query on its own statement, bypassing the cache. */
  uncached<R>(): Promise<Cursor<R>>;
}

interface Wait {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

/** What a run ends with: the whole result, or a live stream too large to keep (claimable once). */
type RunOutcome = CachedResult | LiveResult;

class LiveResult {
  #claimed = false;
  constructor(
    readonly connection: PooledConnection,
    readonly stream: ResultStream,
  ) {
    // Unclaimed once every waiter has seen the outcome (its starter left): give the connection back.
    setImmediate(
      () =>
        void this.claim()
          ?.close()
          .finally(() => connection.release()),
    );
  }
  claim(): ResultStream | undefined {
    if (this.#claimed) return undefined;
    this.#claimed = true;
    return this.stream;
  }
}

/** What a hit needs of the query: its statement, to report it. */
type ServedQuery = Pick<CachedExecution, "sql" | "parameters">;

/**
 * The cursor of a live entry (a hit), or undefined (a miss; both counted): call before building
 * the miss's `CachedExecution`, so a hit allocates nothing for a run it will not make.
 */
export function cachedHit<R>(
  request: CachedRequest,
  query: ServedQuery,
  backend: BackendType,
): Cursor<R> | Promise<Cursor<R> | undefined> | undefined {
  const startedAt = performance.now();
  const hit = request.cache.get(request.key);
  if (hit === undefined) return undefined;
  // A hit reads nothing: unless someone traces queries, no callback, closure or extra await.
  if (!isTraced(queryChannel)) return servedCursor<R>(query, request, startedAt, hit);
  return servedFromCache<R>(backend, query, request, startedAt, async () => hit);
}

/** A miss (see `cachedHit`): joins the identical request in flight, or starts the run. */
export async function executeCached<R>(request: CachedRequest, query: CachedExecution, wait: Wait): Promise<Cursor<R>> {
  const { cache, key } = request;
  const startedAt = performance.now();
  const generation = cache.generation;
  const { flight, joined } = cache.flight(key, (signal) => run(request, query, generation, signal));
  if (joined) {
    const outcome = flight.join(wait);
    const result = await servedFromCache<R>(query.backend, query, request, startedAt, async () => {
      const settled = await outcome;
      return settled instanceof LiveResult ? undefined : settled;
    });
    return result ?? query.uncached<R>();
  }
  const outcome = await flight.join(wait);
  if (!(outcome instanceof LiveResult)) {
    return new Cursor<R>(undefined, cachedStream(outcome, outcome.origin), undefined);
  }
  const stream = outcome.claim();
  if (stream === undefined) return query.uncached<R>();
  const watch =
    wait.signal === undefined && wait.timeoutMs === undefined
      ? undefined
      : new CancelWatch(() => outcome.connection.interrupt(), wait);
  return new Cursor<R>(outcome.connection, stream, watch);
}

/** A cursor over a result the cache serves, reported to the engine's log and the `lib:query` channel. */
async function servedFromCache<R>(
  backend: BackendType,
  query: ServedQuery,
  request: CachedRequest,
  startedAt: number,
  read: () => Promise<CachedResult | undefined>,
): Promise<Cursor<R> | undefined> {
  const context = {
    backend,
    sql: query.sql,
    parameterCount: query.parameters.length,
    servedFrom: "cache" as const,
  };
  const result = isTraced(queryChannel) ? await traced(queryChannel, context, read) : await read();
  return result === undefined ? undefined : servedCursor<R>(query, request, startedAt, result);
}

/** Reports a result served from memory to the engine's log, and opens its cursor. */
function servedCursor<R>(query: ServedQuery, request: CachedRequest, startedAt: number, result: CachedResult) {
  const { cache } = request;
  if (cache.reporting)
    cache.served({ sql: query.sql, parameterCount: query.parameters.length, rows: result.rowCount, startedAt });
  const stream = cachedStream(result);
  const cursor = new Cursor<R>(undefined, stream, undefined);
  // `sendRows` (lib/express) may then send the entry's JSON text instead of reading the rows.
  rememberServed(cursor, { cache, key: request.key, result, stream });
  return cursor;
}

/**
 * The shared run: checks a connection out, reads the whole result, stores it. The signal aborts
 * when every waiter has left: the wait for a connection ends, the running statement is interrupted.
 */
async function run(
  request: CachedRequest,
  query: CachedExecution,
  generation: number,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const connection = await query.connect(signal);
  const watch = new CancelWatch(() => connection.interrupt(), { signal });
  let stream: ResultStream | undefined;
  try {
    stream = named(await connection.stream(query.sql, query.parameters, query.statement), query.columnNames);
    const chunks: unknown[][][] = [];
    let bytes = 0;
    let rowCount = 0;
    const iterator = stream[Symbol.asyncIterator]();
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      chunks.push(next.value);
      bytes += measureRows(next.value);
      rowCount += next.value.length;
      if (bytes > request.cache.maxBytes && watch.reason === undefined) {
        watch.dispose();
        return new LiveResult(connection, replay(stream, chunks, iterator));
      }
    }
    if (watch.reason !== undefined) throw watch.error();
    const result: CachedResult = Object.freeze({
      columns: stream.columns,
      chunks: Object.freeze(chunks),
      rowCount,
      bytes,
      origin: stream.servedFrom === "materialization" ? "materialization" : "warehouse",
    });
    request.cache.set(request.key, result, request.ttlSeconds, generation);
    await stream.close().catch(() => undefined);
    await connection.release();
    return result;
  } catch (error) {
    await stream?.close().catch(() => undefined);
    await connection.release();
    throw watch.reason === undefined ? error : watch.error(error);
  } finally {
    watch.dispose();
  }
}

/** A stream that yields the chunks already read, then the rest of `iterator`. */
function replay(stream: ResultStream, read: unknown[][][], iterator: AsyncIterator<unknown[][]>): ResultStream {
  async function* chunks(): AsyncGenerator<unknown[][]> {
    yield* read.splice(0);
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return {
    columns: stream.columns,
    servedFrom: stream.servedFrom,
    close: () => stream.close(),
    [Symbol.asyncIterator]: chunks,
  };
}
