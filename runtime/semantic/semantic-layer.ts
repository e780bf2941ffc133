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
   * A memo shared with every other session in the same state (the connections of one engine that
   * have not changed their session), present only while this session may use it: outside a
   * transaction, in the engine's own session state. Facts that depend on the session's state and the
   * committed catalog alone go here (the session context, rewritten statements, type probes), so a
   * new connection does not find them again; absent: `memo`.
   */
  readonly sharedMemo?: Map<string, unknown> | undefined;
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
  /**
   * The types DuckDB resolves for the `$1..$n` parameters of `sql` when it prepares it (type texts
   * such as `INTEGER`, `DECIMAL(10,2)`), or undefined when it cannot say (a parameter without a
   * type, a statement that does not prepare). Absent: where_clause values are never bound.
   */
  readonly parameterTypes?: ((sql: string) => Promise<readonly string[] | undefined>) | undefined;
  /**
   * The result columns of `sql` (names and type texts, as `query` reports them), read from its
   * prepared statement without running it; rejects with the error preparing it raised, as running it
   * would; undefined when the statement cannot be prepared on its own (DuckDB expands it into several,
   * such as a PIVOT without an IN list): run it then. Absent: run it.
   */
  readonly describe?: ((sql: string) => Promise<readonly RawColumn[] | undefined>) | undefined;
}

/**
 * A where_clause value the layer lifted out of the statement text, converted exactly to the type
 * DuckDB resolved for its parameter (call/bind-lifted.ts); the driver binds it with that type.
 */
export type BoundParameter =
  | { readonly kind: "varchar"; readonly value: string }
  | { readonly kind: "boolean"; readonly value: boolean }
  /** TINYINT..UINTEGER and DOUBLE: a JS number. */
  | { readonly kind: "number"; readonly value: number }
  /** BIGINT, UBIGINT, HUGEINT, UHUGEINT. */
  | { readonly kind: "bigint"; readonly value: bigint }
  | { readonly kind: "decimal"; readonly unscaled: bigint; readonly width: number; readonly scale: number }
  | { readonly kind: "date"; readonly days: number }
  | { readonly kind: "timestamp" | "timestamptz"; readonly micros: bigint };

/** A where_clause literal value, as DuckDB reads it (call/lift-where-values.ts). */
export type LiftedLiteral =
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "integer"; readonly value: bigint }
  /** A DECIMAL literal: `unscaled / 10^scale`, with the digit count DuckDB reads it with. */
  | { readonly kind: "decimal"; readonly unscaled: bigint; readonly scale: number; readonly digits: number }
  | { readonly kind: "double"; readonly text: string }
  | { readonly kind: "date" | "timestamp" | "timestamptz"; readonly text: string };

/**
 * A lifted literal as the value of one parameter's type, or undefined when binding it would not give
 * the literal's answer (call/bind-lifted.ts `liftedBinder`: one per parameter of a statement shape).
 */
export type LiftedBinder = (literal: LiftedLiteral) => BoundParameter | undefined;

/** A statement with its where_clause values lifted out (call/lift-where-values.ts). */
export interface LiftedStatement {
  /** The statement with each lifted value replaced by `$k`: the same text for every value of this shape. */
  readonly shape: string;
  /** The values, `$1` first. */
  readonly literals: readonly LiftedLiteral[];
}

/** Set in {@link SqlSession.memo} when a memoized fact depends on the open transaction. */
export const UNCOMMITTED_MEMO_KEY = "transaction.uncommitted";

export type HandledStatement =
  /** Nothing semantic in the statement: run it (`statement`: as split, from handleSingle) as it is. */
  | { readonly kind: "passthrough"; readonly statement?: string }
  /**
   * Run this plain DuckDB SQL instead: with the caller's parameters, or with `parameters` (the
   * where_clause values the layer lifted out, bound with their parameters' own types) when present.
   * `servedFrom` (handleSingle with a request): a declared materialization answers it.
   */
  | {
      readonly kind: "rewritten";
      readonly sql: string;
      readonly parameters?: readonly BoundParameter[];
      readonly servedFrom?: "materialization";
    }
  /** Already executed by the layer; this is its result. */
  | { readonly kind: "result"; readonly columns: RawColumn[]; readonly rows: unknown[][] };

/** A rewritten statement (see HandledStatement). */
export type RewrittenSingle = Extract<HandledStatement, { readonly kind: "rewritten" }>;

/** A semantic query's view and members by their warehouse names, never a value (the driver's SemanticRequestInfo). */
export interface SemanticRequest {
  readonly view: string;
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  readonly facts: readonly string[];
  /** A filtered request is never answered from a materialization. */
  readonly filtered: boolean;
}

export interface HandleOptions {
  /**
   * The caller passes no parameters of its own, so the layer may lift the literal values of a
   * `where_clause` into bound parameters (one rewritten statement per shape, not per value).
   */
  readonly bindValues?: boolean;
  /**
   * The statement's where_clause values as its compiler wrote them, lifted already (the same form
   * call/lift-where-values.ts reads out of the text): bound without lexing the statement. Only with `bindValues`.
   */
  readonly lifted?: LiftedStatement | undefined;
  /** The semantic request the statement was compiled from (handleSingle: whether a materialization answers it). */
  readonly request?: SemanticRequest | undefined;
}

export interface SemanticLayer {
  /** Splits a multi-statement string, respecting quotes, dollar quotes, comments and parentheses. */
  splitStatements(sql: string): string[];
  /** Cheap check the driver uses to skip splitting for ordinary SQL. */
  mayHandle(sql: string): boolean;
  /** One statement: passed through, rewritten, or executed by the layer (see HandleOptions). */
  handle(session: SqlSession, statement: string, options?: HandleOptions): Promise<HandledStatement>;
  /**
   * `stream()`'s statement: `sql` must be exactly one statement (otherwise the answer says how many it
   * is). Remembered per text with its routing, so running it again skips splitting and the lookups.
   * A layer without it is asked per statement (`handle`), and nothing it answers is routed.
   */
  handleSingle?(
    session: SqlSession,
    sql: string,
    options?: HandleOptions,
  ): Promise<HandledStatement | { readonly kind: "statements"; readonly count: number }>;
  /**
   * What `handleSingle` answers for a statement run again, from the session's caches alone and
   * without waiting: its rewrite remembered per text, or its lifted values bound into a shape seen
   * already. Undefined: ask `handleSingle`. Only for a statement `mayHandle` accepted.
   */
  knownSingle?(session: SqlSession, sql: string, options?: HandleOptions): RewrittenSingle | undefined;
  /** Forgets what the layer cached for `session`; the driver calls it when the connection closes. */
  release?(session: SqlSession): void;
}
