/**
 * The query executor (Kysely's `QueryExecutor`): the one place where a query's frozen node becomes
 * a compiled query and a cursor. The builder only builds nodes and asks its executor. The executor
 * resolves the engine late (the `using()` engine, the engine registered under that name, else
 * "default"), compiles with the engine's own dialect (memoized per node), checks a connection out
 * and opens the cursor on it. Whatever must see every query on its way to the warehouse (a result
 * cache, a request front door) wraps an executor here, never the builder.
 */
import { QueryCancelledError } from "../errors.js";
import { openCursor, openUncancellable, type CursorQuery } from "../cursor/open-cursor.js";
import type { Cursor } from "../cursor/cursor.js";
import { captureOpenSite } from "../cursor/unclosed-cursor.js";
import { dialectOf, type BackendType } from "../dialects/dialects.js";
import { Engine } from "../engine/engine.js";
import type { CompiledQuery } from "../query-compiler/compiled-query.js";
import type { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { compiledFor, compiledQueryFor, type AnyDialect } from "./compiled-entry.js";
import { resolveEngine, type EngineRef, type QueryEngine } from "./query-engine.js";
import { cachedRequestFor, type QueryCacheOption } from "./cache-options.js";
import { cachedHit, executeCached } from "./cached-execution.js";
import type { QueryScope } from "../result-cache/query-scope.js";
import { resolveDateRanges } from "./date-range-bounds.js";

export interface ExecuteOptions {
  /** Aborting cancels the wait for a connection or the running statement; the promise or read rejects with QueryCancelledError. */
  readonly signal?: AbortSignal;
  /** Deadline in milliseconds for the whole execute(): waiting for a pooled connection, then the statement and its reads. */
  readonly timeoutMs?: number;
  /**
   * The engine's result cache for this query (README "Result cache"): `false` bypasses it, `{ ttl }`
   * (seconds) keeps this result that long instead of the engine's `ttl`. Only on an engine with a cache.
   */
  readonly cache?: QueryCacheOption;
  /**
   * Scope attributes of the request (`{ tenant: "acme" }`), part of the cache key, so two scopes never
   * share a cached result; added to those of an enclosing `withQueryScope()`.
   */
  readonly scope?: QueryScope;
}

/** What a query builder asks of the layer below it. */
export interface QueryExecutor {
  /** The engine queries run on: an engine, a registered name, or undefined for the one registered as "default". */
  readonly engine: EngineRef | undefined;
  /** SQL plus parameters for `dialect` (a known backend name), or for the resolved engine's dialect. */
  compileQuery(node: SemanticQueryNode, dialect?: BackendType): CompiledQuery;
  /** Runs the query on a pooled connection of the resolved engine; the cursor owns the connection. */
  executeQuery<R>(node: SemanticQueryNode, options?: ExecuteOptions): Promise<Cursor<R>>;
  /** The same executor running on another engine (the builder's `using()`). */
  withEngine(engine: EngineRef): QueryExecutor;
}

/** An engine from `createEngine()` carries its dialect; any other `QueryEngine` gets its backend's. */
function dialectOfEngine(engine: QueryEngine): AnyDialect {
  return engine instanceof Engine ? engine.dialect : dialectOf(engine.backend);
}

export class DefaultQueryExecutor implements QueryExecutor {
  readonly engine: EngineRef | undefined;

  constructor(engine?: EngineRef) {
    this.engine = engine;
    Object.freeze(this);
  }

  compileQuery(node: SemanticQueryNode, dialect?: BackendType): CompiledQuery {
    // With an explicit dialect no engine need exist: date-range defaults then come from a given engine only.
    const engine =
      dialect === undefined ? resolveEngine(this.engine) : typeof this.engine === "object" ? this.engine : undefined;
    const engineDialect = dialect === undefined ? dialectOfEngine(engine!) : dialectOf(dialect);
    return compiledQueryFor(engineDialect, resolveDateRanges(node, engine?.dateRanges));
  }

  executeQuery<R>(node: SemanticQueryNode, options: ExecuteOptions = {}): Promise<Cursor<R>> {
    // Not an async method (one frame less per query); whatever throws here rejects.
    try {
      return this.#execute<R>(node, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #execute<R>(node: SemanticQueryNode, options: ExecuteOptions): Promise<Cursor<R>> {
    const engine = resolveEngine(this.engine);
    const dialect = dialectOfEngine(engine);
    const query = compiledFor(dialect, resolveDateRanges(node, engine.dateRanges));
    if (options.signal?.aborted) {
      throw new QueryCancelledError("aborted", "The query was aborted before it started", {
        cause: options.signal.reason,
      });
    }
    const cache = engine instanceof Engine ? engine.resultCache : undefined;
    // No cache and none asked for: nothing to key (the main path allocates no cache request).
    if (cache === undefined && options.cache === undefined) return executeOnConnection<R>(engine, query, options);
    const cached = cachedRequestFor(cache, dialect.name, query, options);
    if (cached === undefined) return executeOnConnection<R>(engine, query, options);
    const hit = cachedHit<R>(cached, query, engine.backend);
    // A traced hit answers a promise (of a cursor: the stored result is there to read).
    if (hit !== undefined) return hit instanceof Promise ? hit.then((cursor) => cursor!) : Promise.resolve(hit);
    return executeCached<R>(
      cached,
      {
        ...query,
        backend: engine.backend,
        connect: (signal) => engine.connect({ signal }),
        uncached: <T>() => executeOnConnection<T>(engine, query, options),
      },
      options,
    );
  }

  withEngine(engine: EngineRef): QueryExecutor {
    return new DefaultQueryExecutor(engine);
  }
}

/**
 * Checks a connection out and opens the cursor on it; the cursor owns the connection. Called before
 * any await of `execute()`, so the caller's frame is still on the stack for `captureOpenSite()`.
 */
function executeOnConnection<R>(engine: QueryEngine, query: CursorQuery, options: ExecuteOptions): Promise<Cursor<R>> {
  const openedAt = captureOpenSite();
  // Nothing can cancel it (the main path): checkout and statement in one async frame.
  if (options.signal === undefined && options.timeoutMs === undefined) {
    return openUncancellable<R>(engine.connect(options), query, openedAt);
  }
  return executeCancellable<R>(engine, query, options, openedAt);
}

async function executeCancellable<R>(
  engine: QueryEngine,
  query: CursorQuery,
  options: ExecuteOptions,
  openedAt: Error | undefined,
): Promise<Cursor<R>> {
  const startedAt = options.timeoutMs === undefined ? 0 : performance.now();
  const connection = await engine.connect(options);
  // What is left of the deadline after the wait for a connection (at least 1 ms: it may fire at once).
  const timeoutMs =
    options.timeoutMs === undefined ? undefined : Math.max(1, options.timeoutMs - (performance.now() - startedAt));
  try {
    return await openCursor<R>(connection, query, { signal: options.signal, timeoutMs, openedAt });
  } catch (error) {
    // Idempotent: harmless if the cursor already released it. A cancelled query's connection may
    // still be ending its statement: its deadline is the caller's, so that goes on in the background.
    const released = connection.release();
    if (error instanceof QueryCancelledError) released.catch(() => undefined);
    else await released;
    throw error;
  }
}

/** The executor of queries that never called `using()`: the engine registered as "default". */
export const DEFAULT_QUERY_EXECUTOR: QueryExecutor = new DefaultQueryExecutor();
