/**
 * The one implementation of `PooledConnection` (Kysely's `…Impl` convention): SQL on one physical
 * connection, rows as objects keyed by column name. Checked out by `engine.connect()`, it goes
 * back to its pool (reset first) on `release()` or at `await using` scope exit, once the calls still
 * running on it have settled, and reports every error to the pool (a disconnect invalidates it). A `connect` listener gets one without a pool,
 * typed as `ConnectConnection`: SQL on the brand-new connection before anyone uses it.
 */
import type { DatabaseConnection, StreamOptions } from "../driver/database-connection.js";
import { rowsToObjects, type QueryResult, type ResultStream } from "../driver/query-result.js";
import { LibError } from "../errors.js";
import type { PooledConnection, Row } from "./pooled-connection.js";

/** What a checked-out connection reports to: its pool. */
export interface ConnectionOwner {
  release(connection: DatabaseConnection): Promise<void>;
  discard(connection: DatabaseConnection): Promise<void>;
  /** A disconnect invalidates the pool: this connection and its older siblings are not reused. */
  noteError(error: unknown): unknown;
}

const toVoid = (): void => undefined;

export class PooledConnectionImpl implements PooledConnection {
  readonly #connection: DatabaseConnection;
  readonly #owner: ConnectionOwner | undefined;
  #released = false;
  #releasing: Promise<void> | undefined;
  /**
   * Calls not yet settled. `return conn.all(...)` from an `await using` block releases the
   * connection while that call runs: resetting it (or handing it to the next borrower) under the
   * running statement would roll back what the block wrote, or hang DuckDB with two statements on
   * one connection. So release waits for them (a count and its waiters: no object per call).
   */
  #running = 0;
  #whenIdle: (() => void)[] = [];

  /** `owner`: the pool it was checked out of; none for the connection a `connect` listener gets. */
  constructor(connection: DatabaseConnection, owner?: ConnectionOwner) {
    this.#connection = connection;
    this.#owner = owner;
  }

  get released(): boolean {
    return this.#released;
  }

  /** The physical connection (library-internal: cursors and tests). */
  get _connection(): DatabaseConnection {
    return this.#connection;
  }

  /**
   * Runs one call on the connection, letting the pool see its failure before it surfaces. `then`s
   * rather than an async frame: `conn.all()` of an application's own query runs this per query.
   */
  #call<T>(run: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    try {
      this.#callStarts();
    } catch (error) {
      return Promise.reject(error);
    }
    let started: Promise<T>;
    try {
      started = run(this.#connection);
    } catch (error) {
      started = Promise.reject(error);
    }
    return started.then(this.#callDone, this.#callFailed) as Promise<T>;
  }

  readonly #callDone = <T>(value: T): T => {
    this.#callSettled();
    return value;
  };

  readonly #callFailed = (error: unknown): never => {
    this.#owner?.noteError(error);
    this.#callSettled();
    throw error;
  };

  #callStarts(): void {
    if (this.#released) {
      throw new LibError("This pooled connection has been released; check out a new one with engine.connect()");
    }
    this.#running++;
  }

  #callSettled(): void {
    if (--this.#running > 0 || this.#whenIdle.length === 0) return;
    for (const resolve of this.#whenIdle.splice(0)) resolve();
  }

  /** Resolves once no call runs on the connection (none can start: it is released). */
  #settled(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  run(sql: string, parameters?: readonly unknown[]): Promise<void> {
    return this.execute(sql, parameters).then(toVoid);
  }

  all(sql: string, parameters?: readonly unknown[]): Promise<Row[]> {
    return this.execute(sql, parameters).then(rowsToObjects);
  }

  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    return this.#begin(false, sql, parameters, undefined) as Promise<QueryResult>;
  }

  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    return this.#begin(true, sql, parameters, options) as Promise<ResultStream>;
  }

  /**
   * #call for `execute` (false) or `stream` (true), without a closure per call: one of these runs
   * once per query on the main path.
   */
  #begin(
    stream: boolean,
    sql: string,
    parameters: readonly unknown[] | undefined,
    options: StreamOptions | undefined,
  ): Promise<QueryResult | ResultStream> {
    try {
      this.#callStarts();
    } catch (error) {
      return Promise.reject(error);
    }
    let started: Promise<QueryResult | ResultStream>;
    try {
      started = stream ? this.#connection.stream(sql, parameters, options) : this.#connection.execute(sql, parameters);
    } catch (error) {
      started = Promise.reject(error);
    }
    return stream
      ? (started as Promise<ResultStream>).then(this.#streamStarted, this.#callFailed)
      : started.then(this.#callDone, this.#callFailed);
  }

  /** The stream, with every failed chunk read reported to the pool first. */
  readonly #streamStarted = (stream: ResultStream): ResultStream => {
    this.#callSettled();
    const owner = this.#owner;
    if (owner === undefined) return stream;
    // A stream that reports its failed reads itself needs no wrapper (no object, no promise per chunk).
    if (stream.observeReadFailures === undefined) return new ObservedStream(stream, owner);
    stream.observeReadFailures(owner);
    return stream;
  };

  interrupt(): void {
    this.#connection.interrupt();
  }

  commit(): Promise<void> {
    return this.#call((connection) => connection.commit()).then(toVoid);
  }

  rollback(): Promise<void> {
    return this.#call((connection) => connection.rollback()).then(toVoid);
  }

  /** Returns the connection to its pool once the calls still running on it have settled. */
  release(): Promise<void> {
    this.#released = true;
    const owner = this.#owner;
    this.#releasing ??=
      owner === undefined
        ? Promise.resolve()
        : this.#running === 0
          ? owner.release(this.#connection)
          : this.#settled().then(() => owner.release(this.#connection));
    return this.#releasing;
  }

  /** Closes the physical connection instead of pooling it again (it is known to be broken). */
  discard(): Promise<void> {
    this.#released = true;
    this.#releasing ??= this.#owner?.discard(this.#connection) ?? Promise.resolve();
    return this.#releasing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}

/** The same stream, with every failed chunk read reported to the pool first. */
class ObservedStream implements ResultStream, AsyncIterator<unknown[][]> {
  readonly #stream: ResultStream;
  readonly #owner: ConnectionOwner;
  #iterator: AsyncIterator<unknown[][]> | undefined;

  constructor(stream: ResultStream, owner: ConnectionOwner) {
    this.#stream = stream;
    this.#owner = owner;
  }

  get columns(): ResultStream["columns"] {
    return this.#stream.columns;
  }

  get servedFrom(): ResultStream["servedFrom"] {
    return this.#stream.servedFrom;
  }

  get queryId(): string | undefined {
    return this.#stream.queryId;
  }

  close(): Promise<void> {
    return this.#stream.close();
  }

  preferColumns(options?: { readonly typedArrays?: boolean }): boolean {
    return this.#stream.preferColumns?.(options) ?? false;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown[][]> {
    this.#iterator ??= this.#stream[Symbol.asyncIterator]();
    return this;
  }

  next(): Promise<IteratorResult<unknown[][]>> {
    // A `then` instead of an async frame: this runs per chunk of every query.
    try {
      return (this.#iterator ??= this.#stream[Symbol.asyncIterator]()).next().then(undefined, this.#failed);
    } catch (error) {
      return Promise.reject(this.#noted(error));
    }
  }

  readonly #failed = (error: unknown): never => {
    throw this.#noted(error);
  };

  #noted(error: unknown): unknown {
    this.#owner.noteError(error);
    return error;
  }

  async return(value?: unknown): Promise<IteratorResult<unknown[][]>> {
    const iterator = (this.#iterator ??= this.#stream[Symbol.asyncIterator]());
    return iterator.return === undefined ? { done: true, value: undefined } : iterator.return(value);
  }
}
