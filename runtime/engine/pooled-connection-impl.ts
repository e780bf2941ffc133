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

export class PooledConnectionImpl implements PooledConnection {
  readonly #connection: DatabaseConnection;
  readonly #owner: ConnectionOwner | undefined;
  #released = false;
  #releasing: Promise<void> | undefined;
  /**
   * Calls not yet settled. `return conn.all(...)` from an `await using` block releases the
   * connection while that call runs: resetting it (or handing it to the next borrower) under the
   * running statement would roll back what the block wrote, or hang DuckDB with two statements on
   * one connection. So release waits for them.
   */
  readonly #running = new Set<Promise<unknown>>();

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

  /** Runs one call on the connection, letting the pool see its failure before it surfaces. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    if (this.#released) {
      throw new LibError("This pooled connection has been released; check out a new one with engine.connect()");
    }
    const call = (async () => {
      try {
        return await run();
      } catch (error) {
        this.#owner?.noteError(error);
        throw error;
      }
    })();
    this.#running.add(call);
    const settled = () => this.#running.delete(call);
    call.then(settled, settled);
    return call;
  }

  /** Resolves once no call runs on the connection (none can start: it is released). */
  async #settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled(this.#running);
  }

  async run(sql: string, parameters?: readonly unknown[]): Promise<void> {
    await this.#call(() => this.#connection.execute(sql, parameters));
  }

  async all(sql: string, parameters?: readonly unknown[]): Promise<Row[]> {
    return rowsToObjects(await this.#call(() => this.#connection.execute(sql, parameters)));
  }

  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    return this.#call(() => this.#connection.execute(sql, parameters));
  }

  async stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    const stream = await this.#call(() => this.#connection.stream(sql, parameters, options));
    const owner = this.#owner;
    return owner === undefined ? stream : observedStream(stream, (error) => owner.noteError(error));
  }

  interrupt(): void {
    this.#connection.interrupt();
  }

  async commit(): Promise<void> {
    await this.#call(() => this.#connection.commit());
  }

  async rollback(): Promise<void> {
    await this.#call(() => this.#connection.rollback());
  }

  /** Returns the connection to its pool once the calls still running on it have settled. */
  release(): Promise<void> {
    this.#released = true;
    const owner = this.#owner;
    this.#releasing ??=
      owner === undefined ? Promise.resolve() : this.#settled().then(() => owner.release(this.#connection));
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

/** The same stream, with every failed chunk read reported to `observe` first. */
function observedStream(stream: ResultStream, observe: (error: unknown) => void): ResultStream {
  const preferColumns = stream.preferColumns?.bind(stream);
  return {
    columns: stream.columns,
    servedFrom: stream.servedFrom,
    close: () => stream.close(),
    ...(preferColumns === undefined ? {} : { preferColumns }),
    [Symbol.asyncIterator]: () => {
      const iterator = stream[Symbol.asyncIterator]();
      const observed: AsyncIterator<unknown[][]> = {
        next: () =>
          iterator.next().catch((error: unknown) => {
            observe(error);
            throw error;
          }),
      };
      if (iterator.return !== undefined) observed.return = (value?: unknown) => iterator.return!(value);
      return observed;
    },
  };
}
