/**
 * The `PooledConnection` users get from `engine.connect()`: SQL on one checked-out physical
 * connection, returned to the pool (reset first) on `release()` or at `await using` scope exit.
 */
import type { DatabaseConnection } from "../driver/database-connection.js";
import { LibError } from "../errors.js";
import { ConnectionHandle } from "./connection-handle.js";
import type { ConnectionPool } from "./connection-pool.js";
import type { PooledConnection } from "./pooled-connection.js";

export class CheckedOutConnection extends ConnectionHandle implements PooledConnection {
  readonly #pool: ConnectionPool;
  #released = false;
  #releasing: Promise<void> | undefined;

  constructor(pool: ConnectionPool, connection: DatabaseConnection) {
    super(connection);
    this.#pool = pool;
  }

  get released(): boolean {
    return this.#released;
  }

  /** The physical connection (library-internal: cursors and tests). */
  get _connection(): DatabaseConnection {
    return this.connection;
  }

  protected override assertUsable(): void {
    if (this.#released)
      throw new LibError("This pooled connection has been released; check out a new one with engine.connect()");
  }

  /** A disconnect invalidates the pool: this connection and its older siblings are not reused. */
  protected override observeError(error: unknown): void {
    this.#pool.noteError(error);
  }

  release(): Promise<void> {
    this.#released = true;
    this.#releasing ??= this.#pool.release(this.connection);
    return this.#releasing;
  }

  /** Closes the physical connection instead of pooling it again (it is known to be broken). */
  discard(): Promise<void> {
    this.#released = true;
    this.#releasing ??= this.#pool.discard(this.connection);
    return this.#releasing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
