/**
 * generic-pool's own `TimeoutError` class, re-exported as `PoolTimeoutError`. The README promises
 * the pool library's class (not a builtin or our own), so `instanceof PoolTimeoutError` holds for
 * exactly what `pool.acquire()` rejects with. generic-pool's package entry does not export it;
 * it lives in `generic-pool/lib/errors`, loaded through the same CommonJS cache as the pool.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The constructor type of generic-pool's `TimeoutError`. */
export interface PoolTimeoutErrorConstructor {
  new (message: string): Error;
  readonly prototype: Error;
}

const errors = require("generic-pool/lib/errors") as { TimeoutError: PoolTimeoutErrorConstructor };

/** Raised when no pooled connection became free within `timeout` seconds ("ResourceRequest timed out"). */
export const PoolTimeoutError: PoolTimeoutErrorConstructor = errors.TimeoutError;
export type PoolTimeoutError = Error;
