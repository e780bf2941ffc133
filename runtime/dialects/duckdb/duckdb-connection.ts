/**
 * One physical DuckDB connection with autocommit off (README "Engines, pools and the registry"): the connection keeps an explicit
 * transaction open, begun lazily before the first statement after a commit or rollback that may
 * write, so `run`/`all` work inside a transaction until `commit()` (or the SQL statement `COMMIT`).
 * A statement that only reads, issued while no transaction is open, runs in DuckDB's autocommit
 * instead: it sees the same committed state a fresh transaction would, and there is nothing to roll
 * back, so it saves the BEGIN and the ROLLBACK on release. (Two such reads in a row may therefore
 * see two different committed states; inside a transaction every read sees one snapshot as before.)
 * Semantic-view statements are routed through the built-in layer when one is configured.
 */
import { answersWithin } from "../../driver/deadline.js";
import type { DuckDBConnection, DuckDBResult, DuckDBResultReader, DuckDBValue } from "@duckdb/node-api";
import type { DatabaseConnection, QueryResult, ResultStream, StreamOptions } from "../../driver/database-connection.js";
import { ProgrammingError } from "../../errors.js";
import { DefinitionCache } from "../../semantic/definition-cache.js";
import {
  UNCOMMITTED_MEMO_KEY,
  type RawColumn,
  type SemanticLayer,
  type SqlSession,
} from "../../semantic/semantic-layer.js";
import { isNoActiveTransaction, mapDuckDBError } from "./duckdb-errors.js";
import { normalizeRawResult, readerToResult, resultStream, streamOfResult } from "./duckdb-results.js";
import {
  isReadOnlyStatement,
  mayContainTransactionControl,
  splitSqlStatements,
  transactionControlOf,
} from "./duckdb-statements.js";
import { maySessionChange, noteSessionChange, StatementCache } from "./duckdb-statement-cache.js";
import { readOneStatement, streamOneStatement } from "./duckdb-one-statement.js";
import { toDuckDBParameters } from "./duckdb-values.js";

type Values = DuckDBValue[] | undefined;

const EMPTY_RESULT: QueryResult = Object.freeze({
  columns: Object.freeze([]),
  rows: Object.freeze([]) as unknown as unknown[][],
});
const PING_TIMEOUT_MS = 5_000;
/** How often a pending interrupt is repeated while the cancelled operation is still running. */
const INTERRUPT_REPEAT_MS = 20;

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
}

export class DuckDBDatabaseConnection implements DatabaseConnection {
  readonly createdAt = Date.now();
  readonly #connection: DuckDBConnection;
  readonly #layer: SemanticLayer | undefined;
  readonly #onClose: (() => void) | undefined;
  readonly #isStale: (() => boolean) | undefined;
  /** Whether we have an explicit transaction open on the DuckDB connection. */
  #inTransaction = false;
  #closed = false;
  readonly #session: SqlSession;
  /** Operations (execute, stream setup, chunk reads) in flight, for interrupt(). */
  #activeOperations = 0;
  #interruptPending = false;
  #interruptTimer: NodeJS.Timeout | undefined;
  /** The semantic layer's per-connection memo (see SqlSession.memo). */
  readonly #memo = new Map<string, unknown>();
  readonly #definitions: DefinitionCache;
  /** Prepared statements of the autocommit reads, reused by SQL text. */
  readonly #statements: StatementCache;

  constructor(connection: DuckDBConnection, options: DuckDBConnectionOptions = {}) {
    this.#connection = connection;
    this.#layer = options.semanticLayer;
    this.#onClose = options.onClose;
    this.#isStale = options.isStale;
    this.#definitions = options.definitions ?? new DefinitionCache();
    this.#statements = new StatementCache(connection, { maxBytes: options.statementBytes });
    const self = this;
    this.#session = {
      query: (sql, parameters) => this.#rawQuery(sql, parameters),
      memo: this.#memo,
      // Committed definitions serve only a session that sees exactly the committed state.
      get definitions() {
        return self.#inTransaction ? undefined : self.#definitions;
      },
    };
  }

  /** True when semantic statements go through the built-in layer on this connection. */
  get usesBuiltinSemanticLayer(): boolean {
    return this.#layer !== undefined;
  }

  /** True while an (implicit or explicit) transaction is open. */
  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  async execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    this.#assertOpen();
    return this.#operation(() => this.#execute(sql, parameters));
  }

  async #execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    try {
      const layer = this.#layer;
      if (layer !== undefined && layer.mayHandle(sql)) return await this.#executeSemantic(layer, sql, parameters);
      return await this.#executePlain(sql, parameters);
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  async stream(sql: string, parameters?: readonly unknown[], _options?: StreamOptions): Promise<ResultStream> {
    this.#assertOpen();
    return this.#operation(() => this.#stream(sql, parameters));
  }

  async #stream(sql: string, parameters?: readonly unknown[]): Promise<ResultStream> {
    try {
      let statement = sql;
      let single = false; // a rewritten call: exactly one statement (duckdb-one-statement.ts)
      const layer = this.#layer;
      if (layer !== undefined && layer.mayHandle(sql)) {
        const statements = layer.splitStatements(sql);
        if (statements.length !== 1) {
          throw new ProgrammingError(`stream() takes exactly one statement, got ${statements.length}`);
        }
        const handled = await layer.handle(this.#session, statements[0]!);
        if (handled.kind === "result") return resultStream(normalizeRawResult(handled.columns, handled.rows));
        statement = handled.kind === "rewritten" ? handled.sql : statements[0]!;
        single = handled.kind === "rewritten";
      }
      if (!single && mayContainTransactionControl(statement) && transactionControlOf(statement) !== undefined) {
        await this.#runStatement(statement, undefined);
        return resultStream(EMPTY_RESULT);
      }
      const result = await this.#changingSession(statement, async () => {
        const autocommitRead = await this.#beginUnlessReadOnly(statement);
        this.#throwIfInterrupted();
        return this.#openStream(statement, toDuckDBParameters(parameters), autocommitRead, single);
      });
      return streamOfResult(result, (fn) => this.#operation(fn));
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  /**
   * Cancels the running operation. DuckDB forgets an interrupt that lands before its statement
   * has started (e.g. while the semantic layer is still rewriting), so the interrupt is repeated
   * until the operation settles, and statements not yet started refuse to start.
   */
  interrupt(): void {
    if (this.#closed) return;
    this.#connection.interrupt();
    if (this.#activeOperations === 0) return;
    this.#interruptPending = true;
    this.#interruptTimer ??= setInterval(() => {
      if (!this.#closed) this.#connection.interrupt();
    }, INTERRUPT_REPEAT_MS).unref();
  }

  async #operation<T>(run: () => Promise<T>): Promise<T> {
    this.#activeOperations++;
    try {
      return await run();
    } finally {
      if (--this.#activeOperations === 0) this.#clearInterrupt();
    }
  }

  #clearInterrupt(): void {
    this.#interruptPending = false;
    if (this.#interruptTimer !== undefined) clearInterval(this.#interruptTimer);
    this.#interruptTimer = undefined;
  }

  #throwIfInterrupted(): void {
    // Same text as DuckDB's own, so it maps like a real interrupt.
    if (this.#interruptPending) throw new Error("INTERRUPT Error: Interrupted!");
  }

  async ping(): Promise<boolean> {
    if (this.#closed) return false;
    return answersWithin(() => this.#connection.run("SELECT 1"), PING_TIMEOUT_MS);
  }

  isStale(): boolean {
    return this.#isStale?.() ?? false;
  }

  async commit(): Promise<void> {
    this.#assertOpen();
    try {
      await this.#endTransaction("COMMIT");
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  async rollback(): Promise<void> {
    this.#assertOpen();
    try {
      await this.#endTransaction("ROLLBACK");
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  async reset(): Promise<void> {
    this.#assertOpen();
    try {
      await this.#endTransaction("ROLLBACK");
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearInterrupt();
    // The layer's caches for this session (probes holding whole statements) go with the connection.
    this.#layer?.release?.(this.#session);
    this.#memo.clear();
    this.#statements.clear();
    try {
      this.#connection.closeSync();
    } finally {
      this.#onClose?.();
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw mapDuckDBError(new Error("Connection Error: connection is closed"));
  }

  /**
   * Runs the layer's own SQL inside our transaction, opening one if needed. BEGIN is its own call:
   * the layer's SQL carries user-influenced text and never travels in a multi-statement call. If the
   * SQL fails, the transaction it opened is rolled back: it held nothing else.
   */
  async #withTransaction<T>(run: () => Promise<T>): Promise<T> {
    if (this.#inTransaction) return run();
    await this.#connection.run("BEGIN TRANSACTION");
    this.#inTransaction = true;
    try {
      return await run();
    } catch (error) {
      this.#inTransaction = false;
      await this.#connection.run("ROLLBACK").catch(() => undefined); // nothing open after a parse error
      this.#forgetUncommitted();
      throw error;
    }
  }

  async #ensureTransaction(): Promise<void> {
    if (this.#inTransaction) return;
    await this.#connection.run("BEGIN TRANSACTION");
    this.#inTransaction = true;
  }

  /**
   * Opens our transaction for `statement` unless it only reads and none is open. True when it runs
   * as such an autocommit read (which may use a cached prepared statement).
   */
  async #beginUnlessReadOnly(statement: string): Promise<boolean> {
    if (this.#inTransaction) return false;
    if (isReadOnlyStatement(statement)) return true;
    await this.#ensureTransaction();
    return false;
  }

  /**
   * COMMIT or ROLLBACK our transaction. With none open it is a no-op. A failed COMMIT has ended
   * DuckDB's transaction (or left it aborted), so we roll back defensively and start clean.
   */
  async #endTransaction(statement: string): Promise<void> {
    if (!this.#inTransaction) return;
    const committing = statement === "COMMIT";
    // Any committed write may change the catalog: before, so nobody caches what is about to change;
    // after, so nothing read while the commit ran survives it.
    if (committing) this.#definitions.invalidate();
    try {
      await this.#connection.run(statement);
      if (committing) this.#memo.delete(UNCOMMITTED_MEMO_KEY);
      else this.#forgetUncommitted();
    } catch (error) {
      this.#forgetUncommitted();
      await this.#connection.run("ROLLBACK").catch((rollbackError: unknown) => {
        if (!isNoActiveTransaction(rollbackError)) throw rollbackError;
      });
      throw error;
    } finally {
      this.#inTransaction = false;
      if (committing) this.#definitions.invalidate();
    }
  }

  /**
   * Runs SQL and reads its whole result. An autocommit read reuses its cached prepared statement.
   * A script without parameters runs as written (one native call); one statement with parameters,
   * and every `single` one (user-influenced text: duckdb-one-statement.ts), is prepared directly.
   */
  async #readAll(sql: string, values: Values, autocommitRead: boolean, single = false): Promise<DuckDBResultReader> {
    const cached = autocommitRead ? await this.#statements.bound(sql, values) : undefined;
    if (cached !== undefined) return this.#runCached(sql, cached.runAndReadAll());
    if (autocommitRead) this.#throwIfInterrupted(); // cancelled while preparing
    if (!single && (values === undefined || sql.includes(";"))) return this.#connection.runAndReadAll(sql, values);
    return readOneStatement(this.#connection, sql, values);
  }

  /** Starts a streamed result; one statement is prepared directly or reused (see #readAll). */
  async #openStream(sql: string, values: Values, autocommitRead: boolean, single: boolean): Promise<DuckDBResult> {
    const cached = autocommitRead ? await this.#statements.bound(sql, values) : undefined;
    if (cached !== undefined) return this.#runCached(sql, cached.stream());
    if (autocommitRead) this.#throwIfInterrupted(); // cancelled while preparing
    if (!single && sql.includes(";")) return this.#connection.stream(sql, values);
    return streamOneStatement(this.#connection, sql, values);
  }

  /** A cached statement's execution; one that failed is prepared afresh next time. */
  async #runCached<T>(sql: string, execution: Promise<T>): Promise<T> {
    try {
      return await execution;
    } catch (error) {
      this.#statements.forget(sql);
      throw error;
    }
  }

  /**
   * Runs SQL that may change settings, the search path or the attached databases with every fact
   * memoized about them forgotten, before (nothing is cached while it runs) and after.
   */
  async #changingSession<T>(sql: string, run: () => Promise<T>): Promise<T> {
    if (!maySessionChange(sql)) return run();
    this.#memo.clear();
    noteSessionChange();
    try {
      return await run();
    } finally {
      noteSessionChange();
    }
  }

  /** After a rollback: memoized facts the transaction created are gone with it. */
  #forgetUncommitted(): void {
    if (this.#memo.has(UNCOMMITTED_MEMO_KEY)) this.#memo.clear();
  }

  /** Runs plain DuckDB SQL (one or more statements), keeping the transaction bookkeeping right. */
  #executePlain(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    return this.#changingSession(sql, () => this.#executeStatements(sql, parameters));
  }

  /** Runs a rewritten semantic statement: exactly one statement, never split or run as a script. */
  #executeRewritten(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    return this.#changingSession(sql, async () => {
      const autocommitRead = await this.#beginUnlessReadOnly(sql);
      this.#throwIfInterrupted();
      return readerToResult(await this.#readAll(sql, toDuckDBParameters(parameters), autocommitRead, true));
    });
  }

  async #executeStatements(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    const values = toDuckDBParameters(parameters);
    if (!mayContainTransactionControl(sql)) {
      const autocommitRead = await this.#beginUnlessReadOnly(sql);
      this.#throwIfInterrupted();
      return readerToResult(await this.#readAll(sql, values, autocommitRead));
    }
    const statements = splitSqlStatements(sql);
    if (values !== undefined && statements.length > 1) {
      throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
    }
    let last = EMPTY_RESULT;
    for (const statement of statements) last = await this.#runStatement(statement, values);
    return last;
  }

  /** One statement: transaction control updates our state; anything else runs inside the transaction. */
  async #runStatement(statement: string, values: DuckDBValue[] | undefined): Promise<QueryResult> {
    switch (transactionControlOf(statement)) {
      case "begin":
        // Autocommit is off, so a transaction is (or will be) open anyway: BEGIN joins it.
        await this.#ensureTransaction();
        return EMPTY_RESULT;
      case "commit":
        await this.#endTransaction("COMMIT");
        return EMPTY_RESULT;
      case "rollback":
        await this.#endTransaction("ROLLBACK");
        return EMPTY_RESULT;
      default: {
        const autocommitRead = await this.#beginUnlessReadOnly(statement);
        this.#throwIfInterrupted();
        return readerToResult(await this.#readAll(statement, values, autocommitRead));
      }
    }
  }

  async #executeSemantic(
    layer: SemanticLayer,
    sql: string,
    parameters: readonly unknown[] | undefined,
  ): Promise<QueryResult> {
    const statements = layer.splitStatements(sql);
    if (parameters !== undefined && parameters.length > 0 && statements.length > 1) {
      throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
    }
    let last = EMPTY_RESULT;
    for (const statement of statements) {
      const handled = await layer.handle(this.#session, statement);
      switch (handled.kind) {
        case "passthrough":
          last = await this.#executePlain(statement, parameters);
          break;
        case "rewritten":
          last = await this.#executeRewritten(handled.sql, parameters);
          break;
        case "result":
          last = normalizeRawResult(handled.columns, handled.rows);
          break;
      }
    }
    return last;
  }

  /** The layer's raw access: same connection, same transaction, DuckDB values un-normalized. */
  async #rawQuery(sql: string, parameters?: readonly unknown[]): Promise<{ columns: RawColumn[]; rows: unknown[][] }> {
    this.#assertOpen();
    this.#throwIfInterrupted();
    const values = toDuckDBParameters(parameters);
    const reader =
      !this.#inTransaction && isReadOnlyStatement(sql)
        ? await this.#readAll(sql, values, true, true)
        : await this.#withTransaction(() => this.#readAll(sql, values, false, true));
    const columns = reader.columnTypes().map((type, i) => ({ name: reader.columnName(i), type: type.toString() }));
    return { columns, rows: reader.getRows() };
  }
}
