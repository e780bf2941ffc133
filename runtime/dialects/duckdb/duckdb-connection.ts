/**
 * One physical DuckDB connection with autocommit off (README "Engines, pools and the registry"): the connection keeps an explicit
 * transaction open, begun lazily before the first statement after a commit or rollback, so
 * `run`/`all` work inside a transaction until `commit()` (or the SQL statement `COMMIT`).
 * Semantic-view statements are routed through the built-in layer when one is configured.
 */
import { answersWithin } from "../../driver/deadline.js";
import type { DuckDBConnection, DuckDBResultReader, DuckDBValue } from "@duckdb/node-api";
import type {
  ColumnInfo,
  DatabaseConnection,
  QueryResult,
  ResultStream,
  StreamOptions,
} from "../../driver/database-connection.js";
import { OperationalError, ProgrammingError } from "../../errors.js";
import { UNCOMMITTED_MEMO_KEY, type RawColumn, type SemanticLayer, type SqlSession } from "../../semantic/semantic-layer.js";
import { isNoActiveTransaction, mapDuckDBError } from "./duckdb-errors.js";
import {
  mayContainTransactionControl,
  splitSqlStatements,
  transactionControlOf,
} from "./duckdb-statements.js";
import { kindOfType, kindOfTypeText, normalizeByKind, normalizingConverter, toDuckDBParameters } from "./duckdb-values.js";

const EMPTY_RESULT: QueryResult = Object.freeze({ columns: Object.freeze([]), rows: Object.freeze([]) as unknown as unknown[][] });
const PING_TIMEOUT_MS = 5_000;
/** Statements after which facts memoized about the current database may be stale. */
const MAY_CHANGE_CATALOG = /\b(USE|ATTACH|DETACH|DROP\s+SCHEMA)\b/i;
/** How often a pending interrupt is repeated while the cancelled operation is still running. */
const INTERRUPT_REPEAT_MS = 20;

export interface DuckDBConnectionOptions {
  /** The built-in semantic layer, when semantic statements are to be answered by it. */
  readonly semanticLayer?: SemanticLayer | undefined;
  /** Called once after the connection is closed (e.g. to close a private `:memory:` instance). */
  readonly onClose?: (() => void) | undefined;
}

export class DuckDBDatabaseConnection implements DatabaseConnection {
  readonly createdAt = Date.now();
  readonly #connection: DuckDBConnection;
  readonly #layer: SemanticLayer | undefined;
  readonly #onClose: (() => void) | undefined;
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

  constructor(connection: DuckDBConnection, options: DuckDBConnectionOptions = {}) {
    this.#connection = connection;
    this.#layer = options.semanticLayer;
    this.#onClose = options.onClose;
    this.#session = { query: (sql, parameters) => this.#rawQuery(sql, parameters), memo: this.#memo };
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
      const layer = this.#layer;
      if (layer !== undefined && layer.mayHandle(sql)) {
        const statements = layer.splitStatements(sql);
        if (statements.length !== 1) {
          throw new ProgrammingError(`stream() takes exactly one statement, got ${statements.length}`);
        }
        const handled = await layer.handle(this.#session, statements[0]!);
        if (handled.kind === "result") return resultStream(normalizeRawResult(handled.columns, handled.rows));
        statement = handled.kind === "rewritten" ? handled.sql : statements[0]!;
      }
      if (mayContainTransactionControl(statement) && transactionControlOf(statement) !== undefined) {
        await this.#runStatement(statement, undefined);
        return resultStream(EMPTY_RESULT);
      }
      await this.#ensureTransaction();
      this.#throwIfInterrupted();
      const result = await this.#connection.stream(statement, toDuckDBParameters(parameters));
      const columns = result.columnTypes().map((type, i) => ({ name: result.columnName(i), type: type.toString(), kind: kindOfType(type) }));
      let closed = false;
      const connection = this.#connection;
      const operation = <T>(fn: () => Promise<T>): Promise<T> => this.#operation(fn);
      // A statement that fails while its result streams just ends the stream: @duckdb/node-api
      // does not surface the error (duckdb_result_error is not bound). The failure does abort
      // the open transaction, though, so one probe tells a complete result from a cut-off one.
      async function assertStreamCompleted(): Promise<void> {
        try {
          await connection.run("SELECT 1");
        } catch (error) {
          throw new OperationalError(
            "The statement failed while its result was being read; the result is incomplete (DuckDB aborted the transaction without reporting the cause)",
            { cause: error },
          );
        }
      }
      async function* chunks(): AsyncGenerator<unknown[][]> {
        while (!closed) {
          let chunk;
          try {
            chunk = await operation(() => result.fetchChunk());
          } catch (error) {
            throw mapDuckDBError(error);
          }
          if (chunk === null || chunk.rowCount === 0) {
            await assertStreamCompleted();
            return;
          }
          yield chunk.convertRows(normalizingConverter);
        }
      }
      const iterator = chunks();
      return {
        columns,
        [Symbol.asyncIterator]: () => iterator,
        close: async () => {
          closed = true;
          await iterator.return(undefined);
        },
      };
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
   * Runs the layer's own SQL inside our transaction. When none is open, BEGIN travels in the same
   * call, saving a round trip on every semantic query (the catalog read is its first statement).
   * Only for SQL the library writes: a user's syntax error would otherwise quote our BEGIN. If the
   * call fails, whatever it opened is rolled back: the transaction held nothing else.
   */
  async #withTransaction<T>(run: (sql: string) => Promise<T>, sql: string): Promise<T> {
    if (this.#inTransaction) return run(sql);
    this.#inTransaction = true;
    try {
      return await run(`BEGIN TRANSACTION; ${sql}`);
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
   * COMMIT or ROLLBACK our transaction. With none open it is a no-op. A failed COMMIT has ended
   * DuckDB's transaction (or left it aborted), so we roll back defensively and start clean.
   */
  async #endTransaction(statement: string): Promise<void> {
    if (!this.#inTransaction) return;
    try {
      await this.#connection.run(statement);
      if (statement === "COMMIT") this.#memo.delete(UNCOMMITTED_MEMO_KEY);
      else this.#forgetUncommitted();
    } catch (error) {
      this.#forgetUncommitted();
      await this.#connection.run("ROLLBACK").catch((rollbackError: unknown) => {
        if (!isNoActiveTransaction(rollbackError)) throw rollbackError;
      });
      throw error;
    } finally {
      this.#inTransaction = false;
    }
  }

  /** After a rollback: memoized facts the transaction created are gone with it. */
  #forgetUncommitted(): void {
    if (this.#memo.has(UNCOMMITTED_MEMO_KEY)) this.#memo.clear();
  }

  /** Runs plain DuckDB SQL (one or more statements), keeping the transaction bookkeeping right. */
  async #executePlain(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    if (MAY_CHANGE_CATALOG.test(sql)) this.#memo.clear();
    const values = toDuckDBParameters(parameters);
    if (!mayContainTransactionControl(sql)) {
      await this.#ensureTransaction();
      this.#throwIfInterrupted();
      return readerToResult(await this.#connection.runAndReadAll(sql, values));
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
      default:
        await this.#ensureTransaction();
        this.#throwIfInterrupted();
        return readerToResult(await this.#connection.runAndReadAll(statement, values));
    }
  }

  async #executeSemantic(layer: SemanticLayer, sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
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
          last = await this.#executePlain(handled.sql, parameters);
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
    const reader = await this.#withTransaction((text) => this.#connection.runAndReadAll(text, toDuckDBParameters(parameters)), sql);
    const columns = reader.columnTypes().map((type, i) => ({ name: reader.columnName(i), type: type.toString() }));
    return { columns, rows: reader.getRows() };
  }
}

function readerToResult(reader: DuckDBResultReader): QueryResult {
  const columns: ColumnInfo[] = reader
    .columnTypes()
    .map((type, i) => ({ name: reader.columnName(i), type: type.toString(), kind: kindOfType(type) }));
  return { columns, rows: reader.convertRows(normalizingConverter) };
}

/** Normalizes a result the semantic layer computed itself, using its declared column types. */
function normalizeRawResult(rawColumns: readonly RawColumn[], rawRows: readonly unknown[][]): QueryResult {
  const columns: ColumnInfo[] = rawColumns.map((c) => ({ name: c.name, type: c.type, kind: kindOfTypeText(c.type) }));
  const rows = rawRows.map((row) => columns.map((column, i) => normalizeByKind(row[i], column.kind)));
  return { columns, rows };
}

/** A stream over an already-read result (one chunk). */
function resultStream(result: QueryResult): ResultStream {
  let done = false;
  return {
    columns: result.columns,
    async *[Symbol.asyncIterator]() {
      if (!done && result.rows.length > 0) {
        done = true;
        yield result.rows as unknown[][];
      }
    },
    close: async () => {
      done = true;
    },
  };
}
