/**
 * The engine's pool: generic-pool with SQLAlchemy's QueuePool semantics on top and guards against
 * generic-pool's traps (README "Engines, pools and the registry"). This file hands connections out
 * and takes them back; opening, validating, invalidating, recycling and trimming them is
 * `pool-lifecycle.ts`.
 *
 * - `max = pool_size + max_overflow`, `min = 0`. Idle connections never exceed `pool_size`: an
 *   overflow connection is closed when it comes back.
 * - `timeout` bounds only the wait for a free connection when all `pool_size + max_overflow` are
 *   out (generic-pool's `TimeoutError`, `PoolTimeoutError`); with room, opening is bounded by the
 *   backend's own login/connect timeouts. `timeout = 0`: fail at once when no connection is free.
 * - `acquire({ signal })`: aborting leaves the queue at once (the caller maps it to a cancellation).
 * - A connection of an older generation, or older than `recycle`, is closed at checkout and another
 *   one taken; at return an older generation's is closed.
 * - Returned connections are reset (open transaction rolled back); a failed reset closes them.
 */
import type { Pool } from "generic-pool";
import type { DatabaseConnection } from "../driver/database-connection.js";
import type { Driver } from "../driver/driver.js";
import { LibConnectionError } from "../errors.js";
import { PoolTimeoutError } from "./pool-timeout-error.js";
import { BorrowedConnections } from "./borrowed-connections.js";
import { findWaitingRequest, rejectAllWaiters } from "./pool-waiters.js";
import { PoolLifecycle, type ConnectListener, type PoolOptions } from "./pool-lifecycle.js";
import { markRecycling } from "../observability/instrumented-driver.js";

export type { ConnectListener, PoolOptions } from "./pool-lifecycle.js";

export interface AcquireOptions {
  /** Aborting rejects the pending checkout with the signal's reason and leaves the queue. */
  readonly signal?: AbortSignal | undefined;
}

/** What `release` answers when there is nothing to wait for. */
const RELEASED: Promise<void> = Promise.resolve();

export class ConnectionPool {
  readonly #lifecycle: PoolLifecycle;
  readonly #pool: Pool<DatabaseConnection>;
  readonly #poolSize: number;
  readonly #timeoutMs: number;
  readonly #listeners: ConnectListener[] = [];
  readonly #borrowed = new BorrowedConnections<DatabaseConnection>();
  #disposal: Promise<void> | undefined;

  constructor(driver: Driver, options: PoolOptions) {
    this.#poolSize = options.poolSize;
    this.#timeoutMs = Math.round(options.timeout * 1000);
    this.#lifecycle = new PoolLifecycle(driver, options, this.#listeners, this.#borrowed);
    this.#pool = this.#lifecycle.pool;
  }

  /** Registers a listener for new physical connections (only `"connect"` exists). */
  on(event: "connect", listener: ConnectListener): this {
    if (event !== "connect") throw new TypeError(`Unknown pool event "${String(event)}"; only "connect" exists`);
    this.#listeners.push(listener);
    return this;
  }

  /** Removes a listener added with `on`. */
  off(event: "connect", listener: ConnectListener): this {
    const index = event === "connect" ? this.#listeners.indexOf(listener) : -1;
    if (index >= 0) this.#listeners.splice(index, 1);
    return this;
  }

  /** Physical connections currently open (idle + borrowed + being validated or opened). */
  get size(): number {
    return this.#pool.size;
  }
  /** Idle connections. */
  get available(): number {
    return this.#pool.available;
  }
  /** Connections checked out. */
  get borrowed(): number {
    return this.#pool.borrowed;
  }
  /** Acquirers waiting for a connection. */
  get pending(): number {
    return this.#pool.pending;
  }
  /** pool_size + max_overflow. */
  get max(): number {
    return this.#pool.max;
  }
  /** Physical connections opened so far (listeners ran and succeeded, or failed). */
  get opened(): number {
    return this.#lifecycle.opened;
  }
  /** Physical connections closed so far. */
  get closed(): number {
    return this.#lifecycle.closed;
  }
  /** How many times the pool was invalidated (a dead connection was detected). */
  get invalidations(): number {
    return this.#lifecycle.invalidations;
  }
  get disposed(): boolean {
    return this.#lifecycle.disposed;
  }

  /**
   * Checks a connection out. Rejects with `PoolTimeoutError` after `timeout` s of waiting while
   * every connection is checked out, `LibConnectionError` when a connection could not be opened,
   * or the signal's reason when `signal` aborts first.
   */
  acquire(options?: AcquireOptions): Promise<DatabaseConnection> {
    const signal = options?.signal;
    try {
      if (this.#lifecycle.disposed) throw new LibConnectionError("The engine has been disposed");
      signal?.throwIfAborted();
    } catch (error) {
      return Promise.reject(error);
    }
    const requestedAt = this.#lifecycle.now();
    // A `then` rather than an async frame: this runs once per query.
    return this.#checkout(signal).then((connection) => this.#checkedOut(connection, requestedAt, options));
  }

  /** The connection a checkout gave, or (closed or set aside: disposed, outdated, too old) the next one. */
  #checkedOut(
    connection: DatabaseConnection,
    requestedAt: number,
    options: AcquireOptions | undefined,
  ): DatabaseConnection | Promise<DatabaseConnection> {
    if (this.#lifecycle.disposed) {
      return this.#lifecycle.destroy(connection).then(() => {
        throw new LibConnectionError("The engine has been disposed");
      });
    }
    if (this.#lifecycle.isOutdated(connection)) {
      this.#lifecycle.abandon(connection);
      return this.acquire(options);
    }
    if (this.#lifecycle.isTooOld(connection, requestedAt)) {
      markRecycling(connection);
      return this.#lifecycle.destroy(connection).then(() => this.acquire(options));
    }
    this.#borrowed.add(connection);
    return connection;
  }

  /** Returns a connection: reset it, then keep it idle or close it (overflow, invalidated, failed reset, disposed). */
  release(connection: DatabaseConnection): Promise<void> {
    if (!this.#borrowed.delete(connection)) return RELEASED;
    // Only the generation: whether it went stale itself (a file check) is asked at its next checkout.
    if (this.#lifecycle.isOlderGeneration(connection)) {
      this.#lifecycle.abandon(connection);
      return RELEASED;
    }
    if (this.#lifecycle.disposed) return this.#lifecycle.destroy(connection);
    // `then` rather than an async frame: this runs once per query.
    let reset: Promise<void>;
    try {
      reset = connection.reset();
    } catch (error) {
      reset = Promise.reject(error);
    }
    return reset.then(
      () => this.#putBack(connection, true),
      (error: unknown) => {
        this.noteError(error);
        return this.#putBack(connection, false);
      },
    );
  }

  /** After the reset: idle again, or closed (failed reset, or overflow nobody waits for). */
  #putBack(connection: DatabaseConnection, resetOk: boolean): Promise<void> {
    // Overflow: pool_size are idle already and nobody waits for this one.
    const keep = resetOk && !(this.#pool.available >= this.#poolSize && this.#pool.pending === 0);
    return keep ? this.#pool.release(connection) : this.#lifecycle.destroy(connection);
  }

  /** Closes a checked-out connection instead of returning it (e.g. it is known to be broken). */
  async discard(connection: DatabaseConnection): Promise<void> {
    if (!this.#borrowed.delete(connection)) return;
    await this.#lifecycle.destroy(connection);
  }

  /**
   * An error a connection raised: when the driver says it means the connection is dead, the pool
   * is invalidated (SQLAlchemy's `is_disconnect`). Returns whether it did.
   */
  noteError(error: unknown): boolean {
    return this.#lifecycle.noteError(error);
  }

  /**
   * Starts a new generation: every connection opened before now (idle, checked out or being
   * pinged) is closed at its next checkout or return instead of being reused.
   */
  invalidate(): void {
    this.#lifecycle.invalidate();
  }

  /**
   * Stops handing out connections and closes the idle ones; waiting acquirers are rejected.
   * Connections still checked out are closed when they come back. Idempotent. The engine puts a
   * deadline on this (`dispose_timeout`).
   */
  dispose(): Promise<void> {
    this.#disposal ??= this.#dispose();
    return this.#disposal;
  }

  async #dispose(): Promise<void> {
    this.#lifecycle.disposed = true;
    rejectAllWaiters(this.#pool, new LibConnectionError("The engine was disposed while waiting for a connection"));
    const drained = this.#pool.drain();
    if (this.#borrowed.size === 0) await drained;
    else drained.catch(() => undefined); // settles when the last loan comes back
    await this.#pool.clear();
  }

  /**
   * One generic-pool checkout. SQLAlchemy's rule: only a request that finds every connection
   * checked out (no idle one, no room to open one) waits with `timeout`; with `timeout = 0` it
   * fails at once. Other requests wait for their connection to open, bounded by the backend.
   */
  #checkout(signal: AbortSignal | undefined): Promise<DatabaseConnection> {
    const pool = this.#pool;
    const busy = pool.available === 0 && pool.spareResourceCapacity < 1;
    if (busy && this.#timeoutMs === 0) return Promise.reject(new PoolTimeoutError("ResourceRequest timed out"));
    const promise = pool.acquire();
    const request = findWaitingRequest(pool, promise);
    if (request === undefined) return promise;
    if (busy) request.setTimeout(this.#timeoutMs);
    if (signal === undefined) return promise;
    // Named TimeoutError, so generic-pool's queue drops the request; never surfaces as such.
    const cancelled = new PoolTimeoutError("The wait for a pooled connection was cancelled");
    const onAbort = (): void => request.reject(cancelled);
    signal.addEventListener("abort", onAbort, { once: true });
    return promise.then(
      (connection) => {
        signal.removeEventListener("abort", onAbort);
        return connection;
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        throw error === cancelled ? signal.reason : error;
      },
    );
  }

  /** Resolves once background housekeeping (trimming idle surplus) has finished (tests). */
  settled(): Promise<void> {
    return this.#lifecycle.settled();
  }
}
