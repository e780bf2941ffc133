/**
 * The life of the pool's physical connections, under generic-pool (README "Engines, pools and the
 * registry"); `connection-pool.ts` hands them out and takes them back.
 *
 * - A failing `create()` backs off exponentially and rejects one waiting acquirer with a
 *   `LibConnectionError`, instead of generic-pool's tight retry loop.
 * - `on("connect", listener)`: listeners run in registration order, each awaited, on every new
 *   physical connection before first use; a failure closes it and fails the checkout.
 * - Invalidation: an error the driver classifies as "connection is dead" (`isDisconnect`), or a
 *   failed pre-ping, starts a new generation; connections from older generations are closed at
 *   checkout or return instead of being reused, so the next checkout opens a fresh one.
 * - `recycle`: a connection older than that is destroyed and replaced at checkout (in the
 *   acquire loop, not in `validate`, whose failures generic-pool leaks).
 * - `pre_ping`: `testOnBorrow` with a `validate` that always resolves a boolean. A failed ping
 *   counts as a failed open for the backoff, and after `prePingAttempts` failures in a row the
 *   waiter gets `LibConnectionError` instead of a login storm.
 * - Idle connections never exceed `pool_size`: one that lands idle beyond it (an open that
 *   finished for a waiter who left) is trimmed.
 */
import genericPool from "generic-pool";
import type { Pool } from "generic-pool";
import type { DatabaseConnection } from "../driver/database-connection.js";
import type { Driver } from "../driver/driver.js";
import { LibConnectionError } from "../errors.js";
import type { ConnectConnection } from "./pooled-connection.js";
import { PooledConnectionImpl } from "./pooled-connection-impl.js";
import { rejectOneWaiter } from "./pool-waiters.js";
import type { BorrowedConnections } from "./borrowed-connections.js";

export type ConnectListener = (connection: ConnectConnection) => void | Promise<void>;

export interface PoolOptions {
  readonly poolSize: number;
  readonly maxOverflow: number;
  /** Seconds to wait for a free connection when all are checked out. */
  readonly timeout: number;
  /** Seconds after which a connection is replaced at checkout. */
  readonly recycle: number;
  readonly prePing: boolean;
  /** First backoff delay after a failed open or ping, doubled per further failure (default 50 ms). */
  readonly createBackoffMs?: number;
  /** Longest backoff delay (default 2000 ms). */
  readonly maxCreateBackoffMs?: number;
  /** Failed pre-pings in a row after which a waiter gets `LibConnectionError` (default 3). */
  readonly prePingAttempts?: number;
  /** Clock for `recycle` (tests); default `Date.now`. */
  readonly now?: () => number;
}

interface ConnectionState {
  readonly openedAt: number;
  readonly generation: number;
}

export class PoolLifecycle {
  /** The generic-pool whose factory this is. */
  readonly pool: Pool<DatabaseConnection>;
  readonly #driver: Driver;
  readonly #poolSize: number;
  readonly #recycleMs: number;
  readonly #prePing: boolean;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #prePingAttempts: number;
  readonly #listeners: readonly ConnectListener[];
  readonly #borrowed: BorrowedConnections<DatabaseConnection>;
  readonly #closedConnections = new WeakSet<DatabaseConnection>();
  readonly #state = new WeakMap<DatabaseConnection, ConnectionState>();
  /** Clock for `recycle` (tests); default `Date.now`. */
  readonly now: () => number;
  #generation = 0;
  #consecutiveFailures = 0;
  #failedPings = 0;
  #opened = 0;
  #closed = 0;
  #invalidations = 0;
  #trimming: Promise<void> | undefined;
  /** Set by the pool's dispose: nothing new is opened, nothing idle is kept. */
  disposed = false;

  /** `listeners` and `borrowed` are the pool's own collections, read here. */
  constructor(
    driver: Driver,
    options: PoolOptions,
    listeners: readonly ConnectListener[],
    borrowed: BorrowedConnections<DatabaseConnection>,
  ) {
    this.#driver = driver;
    this.#poolSize = options.poolSize;
    this.#recycleMs = options.recycle * 1000;
    this.#prePing = options.prePing;
    this.#backoffMs = options.createBackoffMs ?? 50;
    this.#maxBackoffMs = options.maxCreateBackoffMs ?? 2000;
    this.#prePingAttempts = Math.max(1, options.prePingAttempts ?? 3);
    this.now = options.now ?? Date.now;
    this.#listeners = listeners;
    this.#borrowed = borrowed;
    this.pool = genericPool.createPool<DatabaseConnection>(
      {
        create: () => this.#create(),
        destroy: (connection) => this.#close(connection),
        validate: (connection) => this.#validate(connection),
      },
      {
        max: Math.max(1, options.poolSize + options.maxOverflow),
        min: 0,
        // No global acquireTimeoutMillis: it would also count opening a connection. Each request
        // that has to wait for a busy pool gets its own timeout (ConnectionPool's #checkout).
        testOnBorrow: options.prePing,
        autostart: true,
        // Most recently returned first: a warm connection (CPU caches, per-connection memos) serves
        // the next checkout instead of the pool cycling through all of them (~80 µs per DuckDB query).
        fifo: false,
      },
    );
    this.pool.on("factoryCreateError", (error: unknown) => {
      const reason =
        error instanceof LibConnectionError
          ? error
          : new LibConnectionError(`Could not open a connection: ${messageOf(error)}`, { cause: error });
      rejectOneWaiter(this.pool, reason);
    });
  }

  /** Physical connections opened so far (listeners ran and succeeded, or failed). */
  get opened(): number {
    return this.#opened;
  }
  /** Physical connections closed so far. */
  get closed(): number {
    return this.#closed;
  }
  /** How many times the pool was invalidated (a dead connection was detected). */
  get invalidations(): number {
    return this.#invalidations;
  }

  /**
   * An error a connection raised: when the driver says it means the connection is dead, the pool
   * is invalidated (SQLAlchemy's `is_disconnect`). Returns whether it did.
   */
  noteError(error: unknown): boolean {
    if (this.#driver.isDisconnect?.(error) !== true) return false;
    this.invalidate();
    return true;
  }

  /**
   * Starts a new generation: every connection opened before now (idle, checked out or being
   * pinged) is closed at its next checkout or return instead of being reused.
   */
  invalidate(): void {
    this.#generation++;
    this.#invalidations++;
  }

  /** Older than `recycle` (one opened for this checkout never is). */
  isTooOld(connection: DatabaseConnection, requestedAt: number): boolean {
    const openedAt = this.#state.get(connection)?.openedAt ?? connection.createdAt;
    return openedAt < requestedAt && this.now() - openedAt > this.#recycleMs;
  }

  isOlderGeneration(connection: DatabaseConnection): boolean {
    return (this.#state.get(connection)?.generation ?? this.#generation) < this.#generation;
  }

  /** Opened before the last invalidation, or the connection itself knows it is unusable. */
  isOutdated(connection: DatabaseConnection): boolean {
    if (this.isOlderGeneration(connection)) return true;
    if (connection.isStale?.() === true) {
      this.invalidate();
      return true;
    }
    return false;
  }

  /**
   * Closes a dead connection in the background: saying goodbye to a warehouse that is gone can
   * take until the driver's own deadline, and nobody should wait for that.
   */
  abandon(connection: DatabaseConnection): void {
    void this.destroy(connection);
  }

  async destroy(connection: DatabaseConnection): Promise<void> {
    try {
      await this.pool.destroy(connection);
    } catch {
      // Already gone from the pool (e.g. closed by dispose): make sure it is closed.
      await this.#close(connection);
    }
  }

  async #create(): Promise<DatabaseConnection> {
    if (this.#consecutiveFailures > 0) {
      const delay = Math.min(this.#backoffMs * 2 ** (this.#consecutiveFailures - 1), this.#maxBackoffMs);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    if (this.disposed) throw new LibConnectionError("The engine has been disposed");
    const generation = this.#generation;
    let connection: DatabaseConnection;
    try {
      connection = await this.#driver.openConnection();
    } catch (error) {
      this.#consecutiveFailures++;
      throw new LibConnectionError(`Could not open a connection: ${messageOf(error)}`, { cause: error });
    }
    this.#opened++;
    try {
      // Most engines have no listener: no handle, no copy of the list per open (overflow connections open per burst).
      if (this.#listeners.length > 0) {
        const handle = new PooledConnectionImpl(connection);
        for (const listener of [...this.#listeners]) await listener(handle);
      }
    } catch (error) {
      this.#consecutiveFailures++;
      await this.#close(connection);
      throw new LibConnectionError(`A "connect" listener failed on a new connection: ${messageOf(error)}`, {
        cause: error,
      });
    }
    // With pre_ping the first ping decides whether the warehouse is healthy again.
    if (!this.#prePing) this.#consecutiveFailures = 0;
    this.#state.set(connection, { openedAt: this.now(), generation });
    // If its waiter left (or was served by a returned connection) it lands idle: trim the surplus.
    setImmediate(() => this.#trimIdle());
    return connection;
  }

  /** Closes idle connections beyond pool_size (none is checked out to anyone while idle). */
  #trimIdle(): void {
    if (this.#trimming !== undefined || !this.#hasIdleSurplus()) return;
    const trimming = (async () => {
      try {
        while (this.#hasIdleSurplus()) await this.destroy(await this.pool.acquire());
      } catch {
        // The pool was drained meanwhile.
      }
    })();
    this.#trimming = trimming;
    void trimming.finally(() => {
      if (this.#trimming === trimming) this.#trimming = undefined;
    });
  }

  #hasIdleSurplus(): boolean {
    return !this.disposed && this.pool.available > this.#poolSize && this.pool.pending === 0;
  }

  /** Resolves once background housekeeping (trimming idle surplus) has finished (tests). */
  async settled(): Promise<void> {
    while (this.#trimming !== undefined) await this.#trimming;
  }

  async #close(connection: DatabaseConnection): Promise<void> {
    this.#borrowed.delete(connection);
    if (this.#closedConnections.has(connection)) return;
    this.#closedConnections.add(connection);
    try {
      await connection.close();
    } catch {
      // A connection that fails to close is gone as far as we are concerned.
    } finally {
      this.#closed++;
    }
  }

  /**
   * Always resolves a boolean: generic-pool leaks a resource whose validate rejects. Connections
   * of an older generation fail without a ping. A failed ping invalidates the pool (its siblings
   * died in the same outage), counts for the open backoff, and after `prePingAttempts` in a row
   * fails the longest waiter instead of opening yet another connection.
   */
  async #validate(connection: DatabaseConnection): Promise<boolean> {
    if (this.isOutdated(connection)) return false;
    let alive = false;
    try {
      alive = (await connection.ping()) === true;
    } catch {
      alive = false;
    }
    if (alive) {
      this.#consecutiveFailures = 0;
      this.#failedPings = 0;
      return true;
    }
    this.invalidate();
    this.#consecutiveFailures++;
    if (++this.#failedPings >= this.#prePingAttempts) {
      this.#failedPings = 0;
      rejectOneWaiter(
        this.pool,
        new LibConnectionError(
          `pre_ping: ${this.#prePingAttempts} connections in a row failed the liveness check (the warehouse is not answering)`,
        ),
      );
    }
    return false;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
