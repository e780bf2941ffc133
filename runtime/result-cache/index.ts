/**
 * `lib/cache`: what an application imports to scope the engine's result cache per request
 * (README "Result cache"). The cache itself is configured per engine (`[connections.<name>.cache]`,
 * `cache: { ttl, maxBytes }`) and per query (`execute({ cache, scope })`), and read through
 * `engine.resultCache`.
 */
export { withQueryScope, currentQueryScope, type QueryScope, type QueryScopeValue } from "./query-scope.js";
export type { ResultCache, ResultCacheStats } from "./result-cache.js";
