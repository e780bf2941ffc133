/**
 * What a query needs from an engine, and how it finds one at execution time: the engine given to
 * `using()`, the engine registered under the name given to `using()`, else the engine registered as
 * "default". Resolution is late on purpose: nothing in the query module names an engine.
 */
import { LibError } from "../errors.js";
import type { PooledConnection } from "../engine/pooled-connection.js";
import { getEngine } from "../engine/registry.js";
import { isBackend, type Backend } from "./backend.js";

/** The slice of an engine a query uses (an `Engine` from `createEngine()` is one). */
export interface QueryEngine {
  readonly backend: Backend;
  connect(): Promise<PooledConnection>;
}

export type EngineRef = QueryEngine | string;

export const DEFAULT_ENGINE_NAME = "default";

export function resolveEngine(ref: EngineRef | undefined): QueryEngine {
  if (ref !== undefined && typeof ref !== "string") return ref;
  const name = ref ?? DEFAULT_ENGINE_NAME;
  const engine: unknown = getEngine(name);
  if (engine === undefined || engine === null) {
    throw new LibError(
      `No engine is registered as "${name}": create one with createEngine(..., { register: true }) or pass an engine to .using()`,
    );
  }
  const backend = (engine as { backend?: unknown }).backend;
  if (!isBackend(backend)) throw new LibError(`Engine "${name}" has no known backend (got ${String(backend)})`);
  return engine as QueryEngine;
}
