/**
 * Whether one `execute()` goes through its engine's result cache, and under which key and TTL:
 * the engine must have a cache, the query must not say `cache: false`, and the TTL (the query's
 * `cache: { ttl }`, else the engine's) must be above 0. Scope attributes come from
 * `withQueryScope()` around the call and from `execute({ scope })` (the latter wins per attribute).
 */
import { ValidationError } from "../errors.js";
import { MAX_TIMER_MS } from "../driver/deadline.js";
import { cacheKey } from "../result-cache/cache-key.js";
import { checkScope, currentQueryScope, type QueryScope } from "../result-cache/query-scope.js";
import type { ResultCache } from "../result-cache/result-cache.js";

/** `execute({ cache })`: `false` bypasses the cache; `{ ttl }` (seconds) overrides the engine's TTL. */
export type QueryCacheOption = false | { readonly ttl?: number | undefined };

export interface CachedRequest {
  readonly cache: ResultCache;
  readonly key: string;
  readonly ttlSeconds: number;
}

export interface CacheableQuery {
  readonly dialect: string;
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly columnNames?: readonly string[] | undefined;
}

export function cachedRequestFor(
  cache: ResultCache | undefined,
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
  return { cache, ttlSeconds, key: cacheKey({ ...query, scope }) };
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
