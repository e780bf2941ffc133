/**
 * One physical backend B connection: one Databricks SQL session (`openSession`) on the driver's
 * shared `DBSQLClient`. Statements run with `ordinalParameters` (`?` markers); results are read
 * with `fetchAll` / `fetchChunk({ maxRows })`, typed by `operation.getSchema()`.
 *
 * Transactions: Databricks SQL statements autocommit, and a session has no open transaction to
 * end, so `commit()`, `rollback()` and `reset()` are no-ops. `interrupt()` cancels the running
 * operation (`operation.cancel()`), also when it lands before the statement has been submitted.
 */
import { answersWithin, withDeadline } from "../../driver/deadline.js";
import type { DBSQLClient } from "@databricks/sql";
import type { ColumnInfo, QueryResult, ResultStream } from "../../driver/query-result.js";
import type { DatabaseConnection, StreamOptions } from "../../driver/database-connection.js";
import { OperationalError } from "../../errors.js";
import { mapDatabricksError } from "./databricks-errors.js";
import { columnsOfSchema, normalizeRow, toOrdinalParameters, type OrdinalParameter } from "./databricks-values.js";

type IDBSQLSession = Awaited<ReturnType<DBSQLClient["openSession"]>>;
type IOperation = Awaited<ReturnType<IDBSQLSession["executeStatement"]>>;

const PING_TIMEOUT_MS = 5_000;
const DEFAULT_CHUNK_ROWS = 10_000;

/** Builds the driver's parameter for exact decimal text typed `DECIMAL(p,s)` (from the lazily loaded driver module). */
export type DecimalParameterFactory = (text: string, sqlType: string) => OrdinalParameter;

export class DatabricksConnection implements DatabaseConnection {
  readonly createdAt = Date.now();
  readonly #session: IDBSQLSession;
  readonly #secrets: readonly string[];
  readonly #onClose: () => void;
  readonly #decimalParameter: DecimalParameterFactory;
  /** The operation running now (between submit and settle), for interrupt(). */
  #current: IOperation | undefined;
  /** Statements in flight; an interrupt while > 0 cancels the operation once it exists. */
  #active = 0;
  #interruptPending = false;
  #closed = false;

  constructor(
    session: IDBSQLSession,
    secrets: readonly string[],
    decimalParameter: DecimalParameterFactory,
    onClose: () => void,
  ) {
    this.#session = session;
    this.#secrets = secrets;
    this.#decimalParameter = decimalParameter;
    this.#onClose = onClose;
  }

  async execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    return this.#track(async () => {
      const operation = await this.#submit(sql, parameters);
      try {
        const columns = columnsOfSchema(await operation.getSchema());
        const rows = (await operation.fetchAll()) as Record<string, unknown>[];
        return { columns, rows: rows.map((row) => normalizeRow(row, columns)), queryId: operation.id };
      } catch (error) {
        throw mapDatabricksError(error, this.#secrets);
      } finally {
        this.#current = undefined;
        await operation.close().catch(() => undefined);
      }
    });
  }

  async stream(sql: string, parameters?: readonly unknown[], options: StreamOptions = {}): Promise<ResultStream> {
    this.#active++;
    let operation: IOperation;
    let columns: ColumnInfo[];
    try {
      operation = await this.#submit(sql, parameters, Math.max(1, options.chunkRows ?? DEFAULT_CHUNK_ROWS));
      try {
        columns = columnsOfSchema(await operation.getSchema());
      } catch (error) {
        this.#current = undefined;
        await operation.close().catch(() => undefined);
        throw mapDatabricksError(error, this.#secrets);
      }
    } catch (error) {
      this.#settled();
      throw error;
    }
    const maxRows = Math.max(1, options.chunkRows ?? DEFAULT_CHUNK_ROWS);
    const secrets = this.#secrets;
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      this.#current = undefined;
      this.#settled();
      await operation.close().catch(() => undefined);
    };
    async function* chunks(): AsyncGenerator<unknown[][]> {
      try {
        while (!finished && (await operation.hasMoreRows())) {
          const rows = (await operation.fetchChunk({ maxRows, disableBuffering: true })) as Record<string, unknown>[];
          if (rows.length > 0) yield rows.map((row) => normalizeRow(row, columns));
        }
      } catch (error) {
        throw mapDatabricksError(error, secrets);
      } finally {
        await finish();
      }
    }
    const iterator = chunks();
    return {
      columns,
      // The operation's id is the statement id Databricks' query history shows.
      queryId: operation.id,
      [Symbol.asyncIterator]: () => iterator,
      close: async () => {
        await iterator.return(undefined);
        await finish();
      },
    };
  }

  interrupt(): void {
    if (this.#closed || this.#active === 0) return;
    this.#interruptPending = true;
    this.#cancelCurrent();
  }

  async ping(): Promise<boolean> {
    if (this.#closed) return false;
    return answersWithin(() => this.execute("SELECT 1"), PING_TIMEOUT_MS);
  }

  /** No-op: Databricks SQL statements autocommit. */
  async commit(): Promise<void> {}

  /** No-op: there is never an open transaction to roll back. */
  async rollback(): Promise<void> {}

  /** Nothing to clean between users: no transaction, and session settings are not changed by the library. */
  async reset(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#cancelCurrent();
    try {
      // A warehouse that no longer answers must not hold up a release or a dispose.
      await withDeadline(this.#session.close(), PING_TIMEOUT_MS);
    } catch {
      // A dead warehouse or an expired session: nothing left to release on our side.
    } finally {
      this.#onClose();
    }
  }

  async #track<T>(run: () => Promise<T>): Promise<T> {
    this.#active++;
    try {
      return await run();
    } finally {
      this.#settled();
    }
  }

  #settled(): void {
    if (--this.#active === 0) this.#interruptPending = false;
  }

  /**
   * Submits a statement; an interrupt that arrived meanwhile cancels it at once. `directRows` caps
   * the rows the warehouse sends with its answer (direct results; the driver asks for 100000 by
   * default), so a stream's first chunk is no larger than the others.
   */
  async #submit(sql: string, parameters: readonly unknown[] | undefined, directRows?: number): Promise<IOperation> {
    if (this.#closed) throw new OperationalError("The backend_b connection is closed");
    const ordinalParameters = toOrdinalParameters(parameters, this.#decimalParameter);
    let operation: IOperation;
    try {
      operation = await this.#session.executeStatement(sql, {
        ...(ordinalParameters === undefined ? {} : { ordinalParameters: ordinalParameters as never }),
        ...(directRows === undefined ? {} : { maxRows: directRows }),
      });
    } catch (error) {
      throw mapDatabricksError(error, this.#secrets);
    }
    this.#current = operation;
    if (this.#interruptPending) this.#cancelCurrent();
    return operation;
  }

  #cancelCurrent(): void {
    const operation = this.#current;
    if (operation === undefined) return;
    operation.cancel().catch(() => undefined);
  }
}
