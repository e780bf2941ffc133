/**
 * What a backend driver provides (Kysely's `Driver`): physical connections for one configured
 * backend, and the judgement whether an error means a connection is dead.
 */
import type { DatabaseConnection } from "./database-connection.js";

/** Opens physical connections for one configured backend; owns shared state such as a DuckDB instance. */
export interface Driver {
  openConnection(): Promise<DatabaseConnection>;
  /**
   * Whether an error raised on one of its connections means "this connection is dead" (network
   * gone, session unknown to the server, database invalidated), as opposed to a statement the
   * warehouse rejected: SQLAlchemy's `is_disconnect`. The pool then invalidates its connections.
   */
  isDisconnect?(error: unknown): boolean;
  /**
   * Calls `listener` whenever data or the catalog this driver reads may have changed through the
   * library: a commit, DDL or a session change on any connection to the same database (backend C).
   * Result caches subscribe to be invalidated. Returns the unsubscribe function. Drivers of remote
   * warehouses, which cannot see other clients' writes, leave it out (their caches expire by TTL).
   */
  watchChanges?(listener: () => void): () => void;
  /** Releases shared state after every connection has been closed. */
  destroy(): Promise<void>;
}
