/**
 * What a query needs from an engine, and how it finds one at execution time: the engine given to
 * `using()`, the engine registered under the name given to `using()`, else the engine registered as
 * "default". Resolution is late on purpose: nothing in the query module names an engine.
 */
import { LibError } from "../errors.js";
import type { PooledConnection } from "../engine/pooled-connection.js";
import { DEFAULT_ENGINE_NAME, getEngine } from "../engine/registry.js";
import { isBackend, type BackendType } from "../dialects/dialects.js";
import type { DateRangeOptions } from "../operation-node/date-range-node.js";

/** The slice of an engine a query uses (an `Engine` from `createEngine()` is one). */
export interface QueryEngine {
  readonly backend: BackendType;
  /** Defaults for relative date ranges (`inLast()`, ...): time zone, week start, clock. */
  readonly dateRanges?: DateRangeOptions | undefined;
  /** `signal` / `timeoutMs` bound the wait for a pooled connection too (a `QueryCancelledError` ends it). */
  connect(options?: {
    readonly signal?: AbortSignal | undefined;
    readonly timeoutMs?: number | undefined;
  }): Promise<PooledConnection>;
}

/** An engine, or the name it is registered under. */
export type EngineRef = QueryEngine | string;

/** The engine to run on; an unknown name throws the registry's `EngineNotFoundError`. */
export function resolveEngine(ref: EngineRef | undefined): QueryEngine {
  const engine: QueryEngine =
    ref === undefined || typeof ref === "string" ? getEngine(ref ?? DEFAULT_ENGINE_NAME) : ref;
  if (!isBackend(engine.backend)) throw new LibError(`The engine has no known backend (got ${String(engine.backend)})`);
  return engine;
}
