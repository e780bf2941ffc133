/**
 * An engine: validated settings, a driver for the backend, and a pool of its connections.
 * Connections open lazily. `dispose()` (and `await using` scope exit) first removes the engine's
 * registry name, then closes the pool, then releases the driver's shared state.
 */
import { CancelWatch } from "../driver/cancellation.js";
import type { DatabaseConnection } from "../driver/database-connection.js";
import type { Driver } from "../driver/driver.js";
import { DeadlineExceededError, withDeadline } from "../driver/deadline.js";
import { LibConnectionError, LibError } from "../errors.js";
import { PooledConnectionImpl } from "./pooled-connection-impl.js";
import { ConnectionPool } from "./connection-pool.js";
import type { PoolOptions } from "./connection-pool.js";
import type { PooledConnection } from "./pooled-connection.js";
import { PoolTimeoutError } from "./pool-timeout-error.js";
import { namesOf, unregister } from "./registry.js";
import { isTraced, poolWaitChannel, traced } from "../observability/channels.js";
import type { Dialect } from "../dialects/dialect.js";
import { dialectOf, type BackendType, type ConnectionSettings } from "../dialects/dialects.js";
import type { Observer } from "../observability/observer.js";
import { ResultCache } from "../result-cache/result-cache.js";
import type { DateRangeOptions } from "../operation-node/date-range-node.js";

const DEFAULT_DISPOSE_TIMEOUT_S = 10;

export interface EngineInternals {
  /** Pool tuning beyond the settings (tests: backoff, clock). */
  readonly pool?: Partial<Pick<PoolOptions, "createBackoffMs" | "maxCreateBackoffMs" | "prePingAttempts" | "now">>;
  /** Receives pool-wait events (the `log` option and the `lib:pool-wait` tracing channel). */
  readonly observer?: Observer;
  /** Defaults for relative date ranges (`CreateEngineOptions.dateRanges`). */
  readonly dateRanges?: DateRangeOptions | undefined;
}

/** Bounds on one checkout (`engine.connect(options)`); `execute()` passes its own. */
export interface ConnectOptions {
  /** Aborting gives up the wait: `QueryCancelledError` with reason `"aborted"`. */
  readonly signal?: AbortSignal | undefined;
  /** Gives up the wait after this many ms: `QueryCancelledError` with reason `"timeout"`. */
  readonly timeoutMs?: number | undefined;
}

export class Engine implements AsyncDisposable {
  /** The resolved settings; secrets inside are `Secret`s, printed redacted. */
  readonly settings: ConnectionSettings;
  /** The backend's dialect (`DIALECTS[settings.type]`): the query executor compiles with its compiler. */
  readonly dialect: Dialect<BackendType, ConnectionSettings, object>;
  /**
   * The pool (private: for test suites). `engine._pool.on("connect", async (conn) => ...)` runs
   * on every new physical connection before it is handed out.
   */
  readonly _pool: ConnectionPool;
  /**
   * The engine's result cache (README "Result cache"), present when the settings enable one
   * (`[connections.<name>.cache]`, `cache: { ttl, maxBytes }`): `stats()`, `invalidate()`.
   */
  readonly resultCache: ResultCache | undefined;
  readonly #stopWatchingChanges: (() => void) | undefined;
  /** Defaults for relative date ranges of queries run on this engine (time zone, week start, clock). */
  readonly dateRanges: DateRangeOptions;
  readonly #driver: Driver;
  readonly #disposeTimeoutMs: number;
  readonly #observer: Observer | undefined;
  #disposal: Promise<void> | undefined;

  /** Library-internal: use `createEngine`. */
  constructor(settings: ConnectionSettings, driver: Driver, internals: EngineInternals = {}) {
    this.settings = settings;
    this.dialect = dialectOf(settings.type);
    this.#driver = driver;
    this.#disposeTimeoutMs = (settings.disposeTimeout ?? DEFAULT_DISPOSE_TIMEOUT_S) * 1000;
    this.#observer = internals.observer;
    this.dateRanges = Object.freeze({ ...internals.dateRanges });
    this._pool = new ConnectionPool(driver, {
      poolSize: settings.poolSize,
      // A private database per connection (in-memory DuckDB): an overflow connection would be empty.
      maxOverflow: this.dialect.adapter.everyConnectionIsPrivate(settings) ? 0 : settings.maxOverflow,
      timeout: settings.timeout,
      recycle: settings.recycle,
      prePing: settings.prePing,
      ...internals.pool,
    });
    const cache = settings.cache;
    const observer = this.#observer;
    this.resultCache =
      cache === undefined
        ? undefined
        : new ResultCache({
            ...cache,
            onServed:
              observer?.logging === true
                ? ({ sql, parameterCount, rows, startedAt }) =>
                    observer.emit({ type: "query", sql, parameterCount, rows, servedFrom: "cache" }, startedAt)
                : undefined,
          });
    // A commit or DDL through the library on this database (backend C) makes every entry stale.
    const resultCache = this.resultCache;
    this.#stopWatchingChanges =
      resultCache === undefined ? undefined : driver.watchChanges?.(() => resultCache.invalidate());
  }

  /** The backend name (`type`), a key of DIALECTS. */
  get backend(): BackendType {
    return this.settings.type;
  }

  /** The name this engine is registered under (the latest, if several), if any: the registry's answer. */
  get name(): string | undefined {
    return namesOf(this).at(-1);
  }

  /** True once `dispose()` was called. */
  get disposed(): boolean {
    return this.#disposal !== undefined;
  }

  /**
   * Checks out a pooled connection (`await using conn = await engine.connect()`). Waiting longer
   * than `timeout` s for a busy pool rejects with `PoolTimeoutError`; any failure to obtain a
   * connection with `LibConnectionError` (the original error is its `cause`); `signal` and
   * `timeoutMs` end the wait early with `QueryCancelledError`.
   */
  connect(options: ConnectOptions = {}): Promise<PooledConnection> {
    // Nothing can end the wait early and nobody observes it (the main path): no async frame.
    if (
      options.signal === undefined &&
      options.timeoutMs === undefined &&
      this.#observer?.logging !== true &&
      !isTraced(poolWaitChannel) &&
      !this.disposed
    ) {
      return this._pool.acquire().then(this.#checkedOut, this.#checkoutFailed);
    }
    return this.#connect(options);
  }

  readonly #checkedOut = (connection: DatabaseConnection): PooledConnection =>
    new PooledConnectionImpl(connection, this._pool);

  readonly #checkoutFailed = (error: unknown): never => {
    throw checkoutError(error);
  };

  async #connect(options: ConnectOptions): Promise<PooledConnection> {
    if (this.disposed) throw new LibConnectionError("The engine has been disposed");
    const { signal, timeoutMs } = options;
    CancelWatch.validateTimeout(timeoutMs);
    // Only a signal or a deadline can end the wait early: without either, no controller and no watch.
    const stop = signal === undefined && timeoutMs === undefined ? undefined : new AbortController();
    const watch = stop === undefined ? undefined : new CancelWatch(() => stop.abort(), options);
    const started = this.#observer === undefined ? 0 : performance.now();
    try {
      if (signal?.aborted === true) throw watch!.errorForAbortedSignal();
      const acquireOptions = stop === undefined ? undefined : { signal: stop.signal };
      const connection = await (isTraced(poolWaitChannel)
        ? traced(poolWaitChannel, { backend: this.backend }, () => this._pool.acquire(acquireOptions))
        : this._pool.acquire(acquireOptions));
      if (this.#observer?.logging === true) this.#observer.emit({ type: "pool-wait", ok: true }, started);
      return this.#checkedOut(connection);
    } catch (error) {
      this.#observer?.emit({ type: "pool-wait", ok: false }, started);
      if (watch?.reason !== undefined) throw watch.error(error);
      throw checkoutError(error);
    } finally {
      watch?.dispose();
    }
  }

  /**
   * Unregisters the engine's names, then closes the pool, then the driver. Idempotent. Past
   * `dispose_timeout` seconds (a warehouse that no longer answers) the remaining connections are
   * abandoned and the returned promise resolves anyway.
   */
  dispose(): Promise<void> {
    this.#disposal ??= this.#dispose();
    return this.#disposal;
  }

  async #dispose(): Promise<void> {
    for (const name of namesOf(this)) unregister(name);
    this.#stopWatchingChanges?.();
    this.resultCache?.invalidate();
    const closing = (async () => {
      try {
        await this._pool.dispose();
      } finally {
        await this.#driver.destroy();
      }
    })();
    closing.catch(() => undefined);
    await withDeadline(closing, this.#disposeTimeoutMs).catch((error: unknown) => {
      // Abandoned: late closes settle on their own. A failure that is not the deadline surfaces.
      if (!(error instanceof DeadlineExceededError)) throw error;
    });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  /** Engines print their backend and name, never their settings' secrets. */
  toString(): string {
    const name = this.name;
    return `Engine(${this.backend}${name === undefined ? "" : `, "${name}"`})`;
  }
}

/** A failed checkout as `connect()` reports it: the pool's own errors as they are, anything else wrapped. */
function checkoutError(error: unknown): unknown {
  if (error instanceof PoolTimeoutError || error instanceof LibError) return error;
  return new LibConnectionError(
    `Could not obtain a connection: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
