/**
 * One physical connection of a backend driver: runs SQL and hands back normalized values
 * (`query-result.ts`). The engine pools these; cursors stream from them. Drivers map their own
 * errors to `WarehouseError` subclasses.
 */
import type { QueryResult, ResultStream } from "./query-result.js";

export interface StreamOptions {
  /** Rows per chunk the driver should aim for (a hint; DuckDB reads whole 2048-row vectors). */
  readonly chunkRows?: number;
  /**
   * The semantic request the statement was compiled from, for a driver whose engine may answer it
   * from a materialization (backend C's built-in engine): it then marks the stream's `servedFrom`.
   */
  readonly semantic?: SemanticRequestInfo | undefined;
  /** What the statement reads, for warehouses that tag statements for cost attribution (backend A's QUERY_TAG). */
  readonly label?: StatementLabel | undefined;
  /**
   * The compiled query the statement is, as a key: a dialect's compiler may have noted facts about
   * what it wrote (backend C: the filter values in typed form, bound without reading them back out).
   */
  readonly compiled?: object | undefined;
}

/** A semantic query's view and members by their warehouse names: never a value. */
export interface SemanticRequestInfo {
  readonly view: string;
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  readonly facts: readonly string[];
  /** Whether the request filters rows (a filtered request is never answered from a materialization). */
  readonly filtered: boolean;
}

/** A semantic query's view and selected field names: never a value. */
export interface StatementLabel {
  readonly view: string;
  readonly fields: readonly string[];
}

/** One physical connection. Not safe for concurrent statements: the pool hands it to one user at a time. */
export interface DatabaseConnection {
  /** When this physical connection was opened (ms since epoch), for `recycle`. */
  readonly createdAt: number;
  /** Runs SQL (one or several statements) and reads the whole result of the last one. */
  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult>;
  /** Runs one statement and streams its result. Hold the connection until the stream is closed. */
  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream>;
  /** Cancels the statement that is running now, if any; the connection stays usable. */
  interrupt(): void;
  /** A cheap liveness check; resolves false (never rejects) when the connection is dead. */
  ping(): Promise<boolean>;
  /**
   * A local, synchronous check the pool makes at every checkout and return: true when the
   * connection knows it must not be reused (e.g. its database file was deleted or replaced).
   */
  isStale?(): boolean;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Brings the connection back to a clean state for the next user (rolls back an open transaction). */
  reset(): Promise<void>;
  close(): Promise<void>;
}
