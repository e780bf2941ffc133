/**
 * The engine's pool: generic-pool with SQLAlchemy's knobs on top and guards against its traps
 * (README "Engines, pools and the registry").
 *
 * - `max = pool_size + max_overflow`, `min = 0`; a connection returned while `pool_size` are
 *   already idle (and nobody waits) is an overflow connection and is closed.
 * - `timeout` seconds of waiting for a busy pool reject with generic-pool's `TimeoutError`
 *   (`PoolTimeoutError`); running out of time while a connection was being opened or pinged,
 *   with room in the pool, is a `LibConnectionError` (the warehouse is the problem, not the pool).
 * - `recycle`: a connection older than that is destroyed and replaced at checkout (in our
 *   acquire loop, not in `validate`, whose failures generic-pool leaks).
 * - `pre_ping`: `testOnBorrow` with a `validate` that always resolves a boolean.
 * - Returned connections are reset (open transaction rolled back); a failed reset closes them.
 * - A failing `create()` backs off exponentially and rejects one waiting acquirer with a
 *   `LibConnectionError`, instead of generic-pool's tight retry loop until the timeout.
 * - `on("connect", listener)`: listeners run in registration order, each awaited, on every new
 *   physical connection before first use; a failure closes it and fails the checkout.
 */
import genericPool from "generic-pool";
import type { Pool } from "generic-pool";
import type { DatabaseConnection, Driver } from "../driver/database-connection.js";
import { LibConnectionError } from "../errors.js";
import { ConnectionHandle } from "./connection-handle.js";
import { PoolTimeoutError } from "./pool-timeout-error.js";
import { markRecycling } from "../observability/instrumented-driver.js";
import type { ConnectConnection } from "./connection-handle.js";

export type ConnectListener = (connection: ConnectConnection) => void | Promise<void>;

export interface PoolOptions {
  readonly poolSize: number;
  readonly maxOverflow: number;
  /** Seconds to wait for a connection. */
  readonly timeout: number;
  /** Seconds after which a connection is replaced at checkout. */
  readonly recycle: number;
  readonly prePing: boolean;
  /** First backoff delay after a failed open, doubled per further failure (default 50 ms). */
  readonly createBackoffMs?: number;
  /** Longest backoff delay (default 2000 ms). */
  readonly maxCreateBackoffMs?: number;
  /** Clock for `recycle` (tests); default `Date.now`. */
  readonly now?: () => number;
}

/** The piece of generic-pool's private state we need: its queue of waiting acquirers. */
interface WaitingQueue {
  readonly length: number;
  dequeue(): { readonly state: string; reject(reason: unknown): void } | undefined;
}

export class ConnectionPool {
  readonly #driver: Driver;
  readonly #pool: Pool<DatabaseConnection>;
  readonly #poolSize: number;
  readonly #timeoutSeconds: number;
  readonly #recycleMs: number;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #now: () => number;
  readonly #listeners: ConnectListener[] = [];
  readonly #borrowed = new Set<DatabaseConnection>();
  readonly #closedConnections = new WeakSet<DatabaseConnection>();
  /** When each connection was opened, on the pool's clock (for `recycle`). */
  readonly #openedAt = new WeakMap<DatabaseConnection, number>();
  #consecutiveFailures = 0;
  #opened = 0;
  #closed = 0;
  #disposed = false;
  #disposal: Promise<void> | undefined;

  constructor(driver: Driver, options: PoolOptions) {
    this.#driver = driver;
    this.#poolSize = options.poolSize;
    this.#timeoutSeconds = options.timeout;
    this.#recycleMs = options.recycle * 1000;
    this.#backoffMs = options.createBackoffMs ?? 50;
    this.#maxBackoffMs = options.maxCreateBackoffMs ?? 2000;
    this.#now = options.now ?? Date.now;
    this.#pool = genericPool.createPool<DatabaseConnection>(
      {
        create: () => this.#create(),
        destroy: (connection) => this.#close(connection),
        validate: (connection) => this.#validate(connection),
      },
      {
        max: Math.max(1, options.poolSize + options.maxOverflow),
        min: 0,
        // generic-pool rejects 0 ("delay must be a positive int"): 0 s means "do not wait".
        acquireTimeoutMillis: Math.max(1, Math.round(options.timeout * 1000)),
        testOnBorrow: options.prePing,
        autostart: true,
        // Most recently returned first: a warm connection (CPU caches, per-connection memos) serves
        // the next checkout instead of the pool cycling through all of them (~80 µs per DuckDB query).
        fifo: false,
      },
    );
    this.#pool.on("factoryCreateError", (error: unknown) => this.#rejectOneWaiter(error));
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

  /** Physical connections currently open (idle + borrowed + being validated). */
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
    return this.#opened;
  }
  /** Physical connections closed so far. */
  get closed(): number {
    return this.#closed;
  }
  get disposed(): boolean {
    return this.#disposed;
  }

  /**
   * Checks a connection out. Rejects with `PoolTimeoutError` after `timeout` s of waiting, or
   * `LibConnectionError` when a connection could not be opened.
   */
  async acquire(): Promise<DatabaseConnection> {
    for (;;) {
      if (this.#disposed) throw new LibConnectionError("The engine has been disposed");
      const requestedAt = this.#now();
      const connection = await this.#pool.acquire().catch((error: unknown) => {
        throw this.#explainTimeout(error);
      });
      if (this.#disposed) {
        await this.#destroy(connection);
        throw new LibConnectionError("The engine has been disposed");
      }
      const openedAt = this.#openedAt.get(connection) ?? connection.createdAt;
      // A connection opened after this checkout began is never "too old" (recycle = 0 would
      // otherwise replace it again and again): only connections that sat in the pool recycle.
      if (openedAt < requestedAt && this.#now() - openedAt > this.#recycleMs) {
        markRecycling(connection);
        await this.#destroy(connection);
        continue;
      }
      this.#borrowed.add(connection);
      return connection;
    }
  }

  /**
   * generic-pool counts opening and validating a connection against the wait. A timeout while
   * every connection is checked out is the pool's own (`PoolTimeoutError`); one while there was
   * room to spare means the warehouse did not hand over a working connection in time (a hanging
   * login, pings that keep failing): that is `LibConnectionError`, as SQLAlchemy's pool would say.
   */
  #explainTimeout(error: unknown): unknown {
    if (!(error instanceof PoolTimeoutError) || this.#pool.borrowed >= this.#pool.max) return error;
    return new LibConnectionError(
      `No working connection could be opened within the ${this.#timeoutSeconds} s timeout (the warehouse is slow or unreachable)`,
      { cause: error },
    );
  }

  /** Returns a connection: reset it, then keep it idle or close it (overflow, failed reset, disposed). */
  async release(connection: DatabaseConnection): Promise<void> {
    if (!this.#borrowed.delete(connection)) return;
    let clean = !this.#disposed;
    if (clean) {
      try {
        await connection.reset();
      } catch {
        clean = false;
      }
    }
    const overflow = this.#pool.available >= this.#poolSize && this.#pool.pending === 0;
    if (!clean || overflow) await this.#destroy(connection);
    else await this.#pool.release(connection);
  }

  /** Closes a checked-out connection instead of returning it (e.g. it is known to be broken). */
  async discard(connection: DatabaseConnection): Promise<void> {
    if (!this.#borrowed.delete(connection)) return;
    await this.#destroy(connection);
  }

  /**
   * Stops handing out connections and closes the idle ones; waiting acquirers are rejected.
   * Connections still checked out are closed when they come back. Idempotent.
   */
  dispose(): Promise<void> {
    this.#disposal ??= this.#dispose();
    return this.#disposal;
  }

  async #dispose(): Promise<void> {
    this.#disposed = true;
    const error = new LibConnectionError("The engine was disposed while waiting for a connection");
    const queue = this.#waitingQueue();
    while (queue !== undefined && queue.length > 0) queue.dequeue()?.reject(error);
    const drained = this.#pool.drain();
    if (this.#borrowed.size === 0) await drained;
    else drained.catch(() => undefined); // settles when the last loan comes back
    await this.#pool.clear();
  }

  async #destroy(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#pool.destroy(connection);
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
    if (this.#disposed) throw new LibConnectionError("The engine has been disposed");
    let connection: DatabaseConnection;
    try {
      connection = await this.#driver.openConnection();
    } catch (error) {
      this.#consecutiveFailures++;
      throw new LibConnectionError(`Could not open a connection: ${messageOf(error)}`, { cause: error });
    }
    this.#opened++;
    try {
      const handle = new ConnectionHandle(connection);
      for (const listener of [...this.#listeners]) await listener(handle);
    } catch (error) {
      this.#consecutiveFailures++;
      await this.#close(connection);
      throw new LibConnectionError(`A "connect" listener failed on a new connection: ${messageOf(error)}`, { cause: error });
    }
    this.#consecutiveFailures = 0;
    this.#openedAt.set(connection, this.#now());
    return connection;
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

  /** Always resolves a boolean: generic-pool leaks a resource whose validate rejects. */
  async #validate(connection: DatabaseConnection): Promise<boolean> {
    try {
      return (await connection.ping()) === true;
    } catch {
      return false;
    }
  }

  /**
   * generic-pool would retry the failed create for the same waiter until its timeout; reject
   * that waiter now with the error instead (snowflake-sdk's pool does the same).
   */
  #rejectOneWaiter(error: unknown): void {
    const queue = this.#waitingQueue();
    if (queue === undefined) return;
    const reason = error instanceof LibConnectionError ? error : new LibConnectionError(`Could not open a connection: ${messageOf(error)}`, { cause: error });
    while (queue.length > 0) {
      const request = queue.dequeue();
      if (request !== undefined && request.state === "PENDING") {
        request.reject(reason);
        return;
      }
    }
  }

  #waitingQueue(): WaitingQueue | undefined {
    const queue = (this.#pool as unknown as { _waitingClientsQueue?: WaitingQueue })._waitingClientsQueue;
    return queue !== undefined && typeof queue.dequeue === "function" ? queue : undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
