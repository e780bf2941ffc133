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
  /** Releases shared state after every connection has been closed. */
  destroy(): Promise<void>;
}
