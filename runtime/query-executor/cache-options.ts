/**
 * Whether one `execute()` goes through its engine's result cache, and under which key and TTL:
 * the engine must have a cache, the query must not say `cache: false`, and the TTL (the query's
 * `cache: { ttl }`, else the engine's) must be above 0. Scope attributes come from
 * `withQueryScope()` around the call and from `execute({ scope })` (the latter wins per attribute).
 */
import { ValidationError } from "../errors.js";
import { MAX_TIMER_MS } from "../driver/deadline.js";
import { isImmutableParameter, queryKey, scopeKey } from "../result-cache/cache-key.js";
import { checkScope, currentQueryScope, type QueryScope } from "../result-cache/query-scope.js";
import type { ResultCache } from "../result-cache/result-cache.js";

/** `execute({ cache })`: `false` bypasses the cache; `{ ttl }` (seconds) overrides the engine's TTL. */
export type QueryCacheOption = false | { readonly ttl?: number | undefined };

export interface CachedRequest {
  readonly cache: ResultCache;
  readonly key: string;
  readonly ttlSeconds: number;
}

/** A compiled query (its identity memoizes the key: the same object always compiles to the same SQL). */
export interface CacheableQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly columnNames?: readonly string[] | undefined;
}

export function cachedRequestFor(
  cache: ResultCache | undefined,
  dialect: string,
  query: CacheableQuery,
  options: { readonly cache?: QueryCacheOption | undefined; readonly scope?: QueryScope | undefined },
): CachedRequest | undefined {
  const option = options.cache;
  if (option === false) return undefined;
  const ttl = option === undefined ? undefined : queryTtl(option);
  if (cache === undefined) {
    if (option === undefined) return undefined;
    throw new ValidationError(
      "execute({ cache }): this engine has no result cache; enable one with a [connections.<name>.cache] table " +
        "or cache: { ttl, maxBytes } in its config object",
      { field: "cache" },
    );
  }
  const ttlSeconds = ttl ?? cache.defaultTtlSeconds;
  if (ttlSeconds <= 0) return undefined;
  const outer = currentQueryScope();
  const own = options.scope === undefined ? undefined : checkScope(options.scope, "execute({ scope })");
  const scope = outer === undefined ? own : own === undefined ? outer : { ...outer, ...own };
  return { cache, ttlSeconds, key: memoizedQueryKey(dialect, query) + scopeKey(scope) };
}

/**
 * The query's part of the key, built once per compiled query and dialect: a hit then hashes a string
 * V8 has hashed before instead of building and hashing a new one. Not kept when a parameter is a
 * value the caller can change in place (a Date, bytes, a list): that key is built per request.
 */
const queryKeys = new WeakMap<CacheableQuery, { readonly dialect: string; readonly key: string }>();

function memoizedQueryKey(dialect: string, query: CacheableQuery): string {
  const memo = queryKeys.get(query);
  if (memo !== undefined && memo.dialect === dialect) return memo.key;
  const key = queryKey({ dialect, sql: query.sql, parameters: query.parameters, columnNames: query.columnNames });
  if (query.parameters.every(isImmutableParameter)) queryKeys.set(query, { dialect, key });
  return key;
}

function queryTtl(option: unknown): number | undefined {
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    throw new ValidationError(`execute({ cache }): cache must be false or { ttl }, got ${String(option)}`, {
      field: "cache",
    });
  }
  const ttl = (option as { ttl?: unknown }).ttl;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0 || ttl * 1000 > MAX_TIMER_MS) {
    throw new ValidationError(
      `execute({ cache: { ttl } }): ttl must be a number of seconds above 0 and at most ${Math.floor(MAX_TIMER_MS / 1000)}, got ${String(ttl)}`,
      { field: "cache.ttl" },
    );
  }
  return ttl;
}
