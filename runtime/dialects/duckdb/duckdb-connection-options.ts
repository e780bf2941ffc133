/** What a DuckDB connection is opened with besides the native connection (duckdb-driver.ts fills it in). */
import type { DefinitionCache } from "../../semantic/definition-cache.js";
import type { SemanticLayer } from "../../semantic/semantic-layer.js";
import type { SharedSessionMemo } from "./duckdb-shared-session.js";

export interface DuckDBConnectionOptions {
  /** The built-in semantic layer, when semantic statements are to be answered by it. */
  readonly semanticLayer?: SemanticLayer | undefined;
  /** Called once after the connection is closed (e.g. to close a private `:memory:` instance). */
  readonly onClose?: (() => void) | undefined;
  /** True once the connection must not be reused (its database file was deleted or replaced). */
  readonly isStale?: (() => boolean) | undefined;
  /** Committed semantic-view definitions shared by the instance's connections (default: private to this one). */
  readonly definitions?: DefinitionCache | undefined;
  /** Text bytes of prepared statements this connection keeps (its share of the engine's budget). */
  readonly statementBytes?: number | undefined;
  /** Told whenever the database may have changed through this connection (commits, session changes). */
  readonly onChange?: (() => void) | undefined;
  /** The memo the engine's connections share while in its own session state (duckdb-shared-session.ts). */
  readonly sharedMemo?: SharedSessionMemo | undefined;
}
