/**
 * A connection checked out of an engine's pool: the raw-SQL escape hatch (README "Engines, pools and the registry") and what cursors
 * read from. It goes back to the pool on `release()` or at scope exit (`await using`).
 */
import type { QueryResult, ResultStream } from "../driver/query-result.js";
import type { StreamOptions } from "../driver/database-connection.js";

/** A result row as a plain object keyed by column name, values normalized. */
export type Row = Record<string, unknown>;

export interface PooledConnection extends AsyncDisposable {
  /** Runs SQL (one or more statements), discarding any result. */
  run(sql: string, parameters?: readonly unknown[]): Promise<void>;
  /** Runs SQL and returns the rows of the last statement as objects. */
  all(sql: string, parameters?: readonly unknown[]): Promise<Row[]>;
  /** Runs SQL and returns columns plus row arrays. */
  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult>;
  /**
   * Streams one statement's result in chunks; keep the connection until the stream is closed. Given a
   * script, backend C runs its statements in order and streams the last one's result.
   */
  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream>;
  /** Cancels the running statement (the connection stays usable). */
  interrupt(): void;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Returns the connection to the pool. Idempotent. */
  release(): Promise<void>;
  /** True once released. */
  readonly released: boolean;
}

/** What a `connect` listener gets: run SQL on the brand-new connection before anyone uses it. */
export type ConnectConnection = Pick<PooledConnection, "run" | "all" | "execute" | "commit" | "rollback">;
