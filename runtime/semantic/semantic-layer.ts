/**
 * The seam between the backend C driver and the built-in semantic-view engine. The driver hands
 * each statement to the layer; the layer answers whether the statement is plain SQL (pass it
 * through), semantic SQL to run in rewritten form, or a semantic statement it has handled itself
 * (DDL, SHOW/DESCRIBE). It reads and writes through the caller's session, so DDL joins the
 * caller's transaction.
 */
import type { DefinitionCache } from "./definition-cache.js";

/** A raw column as the session reports it: DuckDB's type text. */
export interface RawColumn {
  readonly name: string;
  readonly type: string;
}

/** Raw (un-normalized) access to the caller's DuckDB connection. */
export interface SqlSession {
  query(sql: string, parameters?: readonly unknown[]): Promise<{ columns: RawColumn[]; rows: unknown[][] }>;
  /**
   * Per-connection memo for facts that only change through this connection's own statements
   * (e.g. "the catalog table exists"); it outlives transactions. Whoever memoizes a fact that
   * the current transaction created also sets {@link UNCOMMITTED_MEMO_KEY}: a rollback then
   * clears the memo, a commit just drops the mark. The connection also clears it when the current
   * database may have changed. A session without a memo memoizes nothing.
   */
  readonly memo?: Map<string, unknown>;
  /**
   * The committed definitions shared by every connection to this database, present only while the
   * session may use them: outside a transaction (see definition-cache.ts). Undefined: read the table.
   */
  readonly definitions?: DefinitionCache | undefined;
  /**
   * Called before each expansion: lets a due `timeoutMs` or abort fire (expansion is synchronous) and
   * rejects when the statement was cancelled meanwhile. Absent: nothing to check.
   */
  readonly checkpoint?: (() => Promise<void>) | undefined;
}

/** Set in {@link SqlSession.memo} when a memoized fact depends on the open transaction. */
export const UNCOMMITTED_MEMO_KEY = "transaction.uncommitted";

export type HandledStatement =
  /** Nothing semantic in the statement: run it as it is. */
  | { readonly kind: "passthrough" }
  /** Run this plain DuckDB SQL instead (with the caller's parameters). */
  | { readonly kind: "rewritten"; readonly sql: string }
  /** Already executed by the layer; this is its result. */
  | { readonly kind: "result"; readonly columns: RawColumn[]; readonly rows: unknown[][] };

export interface SemanticLayer {
  /** Splits a multi-statement string, respecting quotes, dollar quotes, comments and parentheses. */
  splitStatements(sql: string): string[];
  /** Cheap check the driver uses to skip splitting for ordinary SQL. */
  mayHandle(sql: string): boolean;
  handle(session: SqlSession, statement: string): Promise<HandledStatement>;
  /** Forgets what the layer cached for `session`; the driver calls it when the connection closes. */
  release?(session: SqlSession): void;
}
