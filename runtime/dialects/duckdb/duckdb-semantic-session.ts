/**
 * The built-in semantic layer's side of one DuckDB connection: the `SqlSession` the layer reads
 * the catalog through (same connection, same transaction, DuckDB values un-normalized), and the
 * routing of semantic-view statements to the layer for `execute()` and `stream()`.
 */
import type { DuckDBValue } from "@duckdb/node-api";
import type { QueryResult } from "../../driver/query-result.js";
import type { StreamOptions } from "../../driver/database-connection.js";
import { ProgrammingError } from "../../errors.js";
import type { DefinitionCache } from "../../semantic/definition-cache.js";
import type {
  BoundParameter,
  HandleOptions,
  RawColumn,
  RewrittenSingle,
  SemanticLayer,
  SqlSession,
} from "../../semantic/semantic-layer.js";
import { EMPTY_RESULT, normalizeRawResult } from "./duckdb-results.js";
import { isReadOnlyStatement } from "./duckdb-statements.js";
import type { DuckDBTransaction } from "./duckdb-transaction.js";
import { toDuckDBParameters } from "./duckdb-values.js";
import { liftedValuesOf } from "./duckdb-lifted-values.js";

/** What the session needs from its connection. */
export interface SemanticSessionHost {
  readonly transaction: DuckDBTransaction;
  /** The layer's per-connection memo (see SqlSession.memo). */
  readonly memo: Map<string, unknown>;
  /** The memo shared with the engine's other connections in its own session state, if this one still is. */
  sharedMemo(): Map<string, unknown> | undefined;
  readonly definitions: DefinitionCache;
  /**
   * Runs the layer's own SQL, exactly one statement (it carries user-influenced text: never through a
   * multi-statement call), and reads its whole result (an autocommit read may reuse a prepared statement).
   */
  readAll(
    sql: string,
    values: DuckDBValue[] | undefined,
    autocommitRead: boolean,
  ): Promise<{ columns: RawColumn[]; rows: unknown[][] }>;
  /** Runs plain DuckDB SQL with the connection's transaction bookkeeping. */
  executePlain(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult>;
  /**
   * Runs a rewritten semantic statement: exactly one statement, never split or run as a script; with
   * `bound` (the where_clause values the layer lifted) instead of the caller's parameters when given.
   */
  executeRewritten(
    sql: string,
    parameters: readonly unknown[] | undefined,
    bound: readonly BoundParameter[] | undefined,
  ): Promise<QueryResult>;
  /** SqlSession.parameterTypes, answered by preparing `sql` (kept for its run). */
  parameterTypes(sql: string): Promise<readonly string[] | undefined>;
  /** SqlSession.describe: `sql` prepared (not run, not kept) in the connection's current state. */
  describe(sql: string): Promise<readonly RawColumn[] | undefined>;
  assertOpen(): void;
  throwIfInterrupted(): void;
}

/** The one statement `stream()` runs for a semantic query, and whether a materialization answers it. */
export interface StreamRoute {
  readonly statement: string;
  /** A rewritten call: it must run as exactly one statement (duckdb-one-statement.ts). */
  readonly single: boolean;
  readonly servedFrom?: "materialization" | undefined;
  /** The where_clause values the layer lifted out of the statement, to bind with their own types. */
  readonly bound?: readonly BoundParameter[] | undefined;
}

export class DuckDBSemanticSession {
  readonly #layer: SemanticLayer;
  readonly #host: SemanticSessionHost;
  readonly #session: SqlSession;
  /** knownRoute's last answer, and the layer's statement it was made from. */
  #lastKnown: RewrittenSingle | undefined;
  #lastRoute: StreamRoute | undefined;

  constructor(layer: SemanticLayer, host: SemanticSessionHost) {
    this.#layer = layer;
    this.#host = host;
    this.#session = new HostSession(host, this);
  }

  /**
   * Whether `sql` may be a semantic-view statement (a cheap check before the layer parses it). A
   * compiled query whose where_clause values the compiler lifted is one by construction: its text
   * (new for each new value) is not scanned.
   */
  mayHandle(sql: string, options?: StreamOptions): boolean {
    return (
      (options?.compiled !== undefined && liftedValuesOf(options.compiled) !== undefined) || this.#layer.mayHandle(sql)
    );
  }

  async execute(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    const statements = this.#layer.splitStatements(sql);
    if (parameters !== undefined && parameters.length > 0 && statements.length > 1) {
      throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
    }
    let last = EMPTY_RESULT;
    const bindValues = parameters === undefined || parameters.length === 0;
    for (const statement of statements) {
      const handled = await this.#layer.handle(this.#session, statement, { bindValues });
      switch (handled.kind) {
        case "passthrough":
          last = await this.#host.executePlain(statement, parameters);
          break;
        case "rewritten":
          last = await this.#host.executeRewritten(handled.sql, parameters, handled.parameters);
          break;
        case "result":
          last = normalizeRawResult(handled.columns, handled.rows);
          break;
      }
    }
    return last;
  }

  /**
   * What `stream()` reads: the layer's whole answer, or the one statement to stream from DuckDB
   * (`single` when the layer rewrote it: it must run as exactly one statement); with the semantic
   * request it was compiled from, whether the layer answers it from a materialization. `bindValues`:
   * the caller has no parameters of its own (see SemanticLayer.handle).
   */
  async forStream(
    sql: string,
    parameters: readonly unknown[] | undefined,
    options: StreamOptions | undefined,
  ): Promise<{ readonly result: QueryResult } | StreamRoute> {
    const bindValues = (parameters?.length ?? 0) === 0;
    const lifted = bindValues ? liftedValuesOf(options?.compiled) : undefined;
    const handled = await this.#handleSingle(sql, { bindValues, lifted, request: options?.semantic });
    switch (handled.kind) {
      case "statements":
        throw new ProgrammingError(`stream() takes exactly one statement, got ${handled.count}`);
      case "result":
        return { result: normalizeRawResult(handled.columns, handled.rows) };
      case "passthrough":
        return { statement: handled.statement ?? sql, single: false };
      case "rewritten":
        return { statement: handled.sql, single: true, servedFrom: handled.servedFrom, bound: handled.parameters };
    }
  }

  /**
   * `forStream`'s route when the layer knows it without waiting (a statement run again, its
   * rewrite); undefined: ask `forStream`.
   */
  knownRoute(
    sql: string,
    parameters: readonly unknown[] | undefined,
    options: StreamOptions | undefined,
  ): StreamRoute | undefined {
    const bindValues = (parameters?.length ?? 0) === 0;
    const known = this.#layer.knownSingle?.(this.#session, sql, {
      bindValues,
      lifted: bindValues ? liftedValuesOf(options?.compiled) : undefined,
      request: options?.semantic,
    });
    if (known === undefined) return undefined;
    // The statement answered last (a query run again): its route again, no object per run.
    if (known === this.#lastKnown && this.#lastRoute !== undefined) return this.#lastRoute;
    const route = { statement: known.sql, single: true, servedFrom: known.servedFrom, bound: known.parameters };
    this.#lastKnown = known;
    this.#lastRoute = route;
    return route;
  }

  /**
   * The layer's answer for stream()'s one statement, remembered by the layer per text with its
   * routing (SemanticLayer.handleSingle); a layer without that method is asked per statement.
   */
  async #handleSingle(sql: string, options: HandleOptions): ReturnType<NonNullable<SemanticLayer["handleSingle"]>> {
    const layer = this.#layer;
    if (layer.handleSingle !== undefined) return layer.handleSingle(this.#session, sql, options);
    const statements = layer.splitStatements(sql);
    if (statements.length !== 1) return { kind: "statements", count: statements.length };
    const handled = await layer.handle(this.#session, statements[0]!, options);
    return handled.kind === "passthrough" ? { kind: "passthrough", statement: statements[0]! } : handled;
  }

  /** The layer's caches for this session (probes holding whole statements) go with the connection. */
  release(): void {
    this.#layer.release?.(this.#session);
  }

  /** SqlSession.describe, in the same transaction `rawQuery` would run `sql` in. */
  async describe(sql: string): Promise<readonly RawColumn[] | undefined> {
    const host = this.#host;
    host.assertOpen();
    host.throwIfInterrupted();
    if (!host.transaction.open && isReadOnlyStatement(sql)) return host.describe(sql);
    return host.transaction.withTransaction(() => host.describe(sql));
  }

  /** The layer's raw access: same connection, same transaction, DuckDB values un-normalized. */
  async rawQuery(sql: string, parameters?: readonly unknown[]): Promise<{ columns: RawColumn[]; rows: unknown[][] }> {
    const host = this.#host;
    host.assertOpen();
    host.throwIfInterrupted();
    const values = toDuckDBParameters(parameters);
    return !host.transaction.open && isReadOnlyStatement(sql)
      ? host.readAll(sql, values, true)
      : host.transaction.withTransaction(() => host.readAll(sql, values, false));
  }
}

/**
 * The `SqlSession` the layer reads through: a class rather than an object literal with getters and
 * closures, made for every new connection (an overflow connection's open pays for it).
 */
class HostSession implements SqlSession {
  readonly #host: SemanticSessionHost;
  readonly #owner: DuckDBSemanticSession;
  readonly memo: Map<string, unknown>;

  constructor(host: SemanticSessionHost, owner: DuckDBSemanticSession) {
    this.#host = host;
    this.#owner = owner;
    this.memo = host.memo;
  }

  query(sql: string, parameters?: readonly unknown[]): Promise<{ columns: RawColumn[]; rows: unknown[][] }> {
    return this.#owner.rawQuery(sql, parameters);
  }

  get sharedMemo(): Map<string, unknown> | undefined {
    return this.#host.transaction.open ? undefined : this.#host.sharedMemo();
  }

  /** Committed definitions serve only a session that sees exactly the committed state. */
  get definitions(): DefinitionCache | undefined {
    return this.#host.transaction.open ? undefined : this.#host.definitions;
  }

  parameterTypes(sql: string): Promise<readonly string[] | undefined> {
    return this.#host.parameterTypes(sql);
  }

  describe(sql: string): Promise<readonly RawColumn[] | undefined> {
    return this.#owner.describe(sql);
  }

  async checkpoint(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#host.throwIfInterrupted();
  }
}
