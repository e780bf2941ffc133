/**
 * One backend A session on snowflake-sdk, as a `DatabaseConnection`.
 *
 * - Statements run with `rowMode: "array"` and `fetchAsString: ["Number"]`; values are normalized
 *   per column by snowflake-values.ts. Parameters are `?` binds (bigint/Decimal as exact text).
 * - Several statements in one `execute()` run one request each (Snowflake rejects several in one
 *   request unless MULTI_STATEMENT_COUNT is set); the last one's result is returned. Parameters
 *   need a single statement, as on backend C. `stream()` takes one statement.
 * - The sdk retries query requests against an unreachable server for a very long time, so the
 *   driver keeps its own deadlines: `request_timeout` (default 10 min) bounds a statement; while one runs, a
 *   heartbeat every `heartbeat_interval` (default 10 s) that goes unanswered for as long fails it with
 *   `OperationalError` (code `warehouse_unreachable`, a disconnect); `interrupt()` cancels
 *   (`statement.cancel()`, an abort-request) and rejects the pending call at once; a statement the
 *   warehouse has not ended after a grace period marks the connection broken. `ping()`
 *   (a heartbeat via `isValidAsync()`) and `close()` are bounded too. A connection that hit such a
 *   deadline or a network/session error is marked broken: `ping()` says false, so the pool replaces it.
 * - Transactions: Snowflake sessions autocommit. `commit()`/`rollback()` send COMMIT/ROLLBACK
 *   (harmless without a transaction); `reset()` sends ROLLBACK only after the connection ran a
 *   BEGIN/START TRANSACTION that was not yet ended, so returning a connection costs no round trip.
 */
import { withDeadline } from "../../driver/deadline.js";
import type { Readable } from "node:stream";
import type { Connection, RowStatement } from "snowflake-sdk";
import type { DatabaseConnection, StatementLabel, StreamOptions } from "../../driver/database-connection.js";
import type { QueryResult, ResultStream } from "../../driver/query-result.js";
import { InternalError, OperationalError, ProgrammingError, ValidationError } from "../../errors.js";
import { collectRows, containment, type Guard } from "./snowflake-containment.js";
import { SnowflakeDriverError } from "./snowflake-driver-error.js";
import { isConnectionLevelError, mapSnowflakeError } from "./snowflake-errors.js";
import { markEnded, untilEnded, type Running } from "./snowflake-running.js";
import { splitSnowflakeStatements } from "./snowflake-statements.js";
import { queryTagOf } from "./snowflake-query-tag.js";
import { convertRow, snowflakeColumn, toSnowflakeBind, type SnowflakeColumn } from "./snowflake-values.js";

export interface SnowflakeConnectionOptions {
  /** Client-side deadline for one statement (ms); none when undefined or 0. */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * While a statement runs, its session is checked (a heartbeat, bounded by the same time) this
   * often (ms): the sdk would retry requests to a dead warehouse for a minute or more.
   */
  readonly livenessIntervalMs?: number | undefined;
  /** Deadline for `ping()` and `close()` (ms). */
  readonly housekeepingTimeoutMs?: number;
  /** How long `interrupt()` waits for the warehouse to confirm before giving up locally (ms). */
  readonly cancelGraceMs?: number;
  /** Secret values to scrub from error messages. */
  readonly secrets?: readonly string[];
  /** The `query_tag` setting: undefined sends the default tag per statement, `""` none (snowflake-query-tag.ts). */
  readonly queryTag?: string | undefined;
}

const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const END = /^\s*(COMMIT|ROLLBACK)\b/i;
const DEFAULT_CHUNK_ROWS = 1024;

export class SnowflakeDatabaseConnection implements DatabaseConnection {
  readonly createdAt = Date.now();
  readonly #connection: Connection;
  readonly #options: SnowflakeConnectionOptions;
  #running: Running | undefined;
  #inTransaction = false;
  #broken = false;
  #closed: Promise<void> | undefined;
  /** A cancelled statement the warehouse has not ended yet: settles when it does, or after the grace period. */
  #cancelling: Promise<void> | undefined;

  constructor(connection: Connection, options: SnowflakeConnectionOptions = {}) {
    this.#connection = connection;
    this.#options = options;
  }

  async execute(sql: string, parameters: readonly unknown[] = []): Promise<QueryResult> {
    const statements = sql.includes(";") ? splitSnowflakeStatements(sql) : [sql];
    if (statements.length > 1) {
      if (parameters.length > 0) {
        throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
      }
      let last: QueryResult = { columns: [], rows: [] };
      for (const one of statements) last = await this.execute(one);
      return last;
    }
    const { statement, rows } = await this.#run(statements[0] ?? sql, parameters, false, undefined);
    const columns = columnsOf(statement);
    return {
      columns: columns.map((c) => c.info),
      rows: (rows ?? []).map((row) => convertRow(columns, row as unknown[])),
      queryId: queryIdOf(statement),
    };
  }

  async stream(sql: string, parameters: readonly unknown[] = [], options: StreamOptions = {}): Promise<ResultStream> {
    const { statement, guard, target } = await this.#run(sql, parameters, true, options.label);
    const columns = columnsOf(statement);
    const chunkRows = Math.max(1, options.chunkRows ?? DEFAULT_CHUNK_ROWS);
    // Created and read inside the statement's guard: the sdk reads rows in callbacks of its own.
    const rows = guard.run(() => guard.stream(statement.streamRows() as Readable));
    const rowIterator = guard.run(() => rows[Symbol.asyncIterator]());
    let closed = false;
    // Abandoning ends the readable without an error event (nobody may be listening) and
    // remembers why, so a reader still iterating gets the error.
    let abandoned: Error | undefined;
    const reading: Running = {
      statement,
      streaming: true,
      abandon: (error) => {
        abandoned ??= error;
        rows.destroy();
      },
    };
    this.#running = reading;
    target.current = reading;
    const close = async () => {
      if (closed) return;
      closed = true;
      if (this.#running === reading) this.#running = undefined;
      rows.destroy();
    };
    const secrets = this.#options.secrets ?? [];
    async function* chunks(): AsyncGenerator<unknown[][]> {
      let chunk: unknown[][] = [];
      try {
        for (;;) {
          const step = await guard.run(() => rowIterator.next());
          if (step.done === true) break;
          const row: unknown = step.value;
          if (closed) return;
          if (abandoned) throw abandoned;
          chunk.push(convertRow(columns, row as unknown[]));
          if (chunk.length >= chunkRows) {
            yield chunk;
            chunk = [];
          }
        }
        if (abandoned) throw abandoned;
        if (chunk.length > 0 && !closed) yield chunk;
      } catch (error) {
        if (abandoned) throw abandoned;
        if (closed) return;
        throw mapSnowflakeError(SnowflakeDriverError.from(error, secrets));
      } finally {
        await close();
      }
    }
    const iterator = chunks();
    return {
      columns: columns.map((c) => c.info),
      queryId: queryIdOf(statement),
      close,
      [Symbol.asyncIterator]: () => iterator,
    };
  }

  interrupt(): void {
    const running = this.#running;
    if (running === undefined) return;
    if (running.streaming) {
      running.abandon(
        new OperationalError("The statement was cancelled while its result was being read", { code: "000604" }),
      );
      return;
    }
    try {
      // The abort-request's success answer confirms the session is alive and the statement is being
      // ended (the sdk's poll of the statement may report that later, on a loaded machine seconds later).
      running.statement?.cancel((error) => {
        if (error === undefined || error === null) markEnded(running);
      });
    } catch {
      // the statement already finished
    }
    // The caller's deadline is kept to the millisecond: the pending call rejects now, while the sdk
    // may still be polling for the result; the cancellation goes on in the background, and the
    // connection is handed out again (reset) only once it is over.
    running.abandon(new OperationalError("The statement was cancelled", { code: "000604" }));
    if (running.ended === true || this.#cancelling !== undefined) return;
    const cancelling = untilEnded(running, this.#options.cancelGraceMs ?? 3_000).then((ended) => {
      // Not ended within the grace (e.g. unreachable, the sdk retrying): never reuse this session.
      if (!ended) this.#broken = true;
      if (this.#cancelling === cancelling) this.#cancelling = undefined;
    });
    this.#cancelling = cancelling;
  }

  async ping(): Promise<boolean> {
    if (this.#broken || this.#closed !== undefined || !this.#connection.isUp()) return false;
    // A heartbeat the warehouse answers with "session gone" leaves the sdk disconnected with the
    // request queued forever, so also watch isUp() instead of waiting for the deadline.
    let watcher: NodeJS.Timeout | undefined;
    const wentDown = new Promise<boolean>((resolve) => {
      watcher = setInterval(() => {
        if (!this.#connection.isUp()) resolve(false);
      }, 25);
      watcher.unref();
    });
    const alive = await withDeadline(Promise.race([this.#connection.isValidAsync(), wentDown]), this.#housekeepingMs)
      .catch(() => false)
      .finally(() => clearInterval(watcher));
    if (!alive) this.#broken = true;
    return alive === true;
  }

  /** A connection that hit a network/session error or a deadline is never reused. */
  isStale(): boolean {
    return this.#broken;
  }

  async commit(): Promise<void> {
    await this.execute("COMMIT");
  }

  async rollback(): Promise<void> {
    await this.execute("ROLLBACK");
  }

  async reset(): Promise<void> {
    if (this.#running?.streaming) this.#dropStream();
    if (this.#cancelling !== undefined) await this.#cancelling;
    if (this.#broken) throw new OperationalError("The backend A connection is broken and cannot be reused");
    if (this.#inTransaction) await this.execute("ROLLBACK");
  }

  close(): Promise<void> {
    this.#closed ??= withDeadline(
      new Promise<void>((resolve) => {
        this.#running?.abandon(new OperationalError("The backend A connection was closed"));
        try {
          this.#connection.destroy(() => resolve());
        } catch {
          resolve();
        }
      }),
      this.#housekeepingMs,
    ).then(
      () => undefined,
      () => undefined,
    );
    return this.#closed;
  }

  /**
   * Calls `onDead` when a heartbeat sent while the statement runs gets no positive answer within
   * the liveness interval. Returns the function that stops watching.
   */
  #watchLiveness(onDead: () => void): () => void {
    const intervalMs = this.#options.livenessIntervalMs;
    if (intervalMs === undefined || intervalMs <= 0) return () => undefined;
    let probing = false;
    let stopped = false;
    const timer = setInterval(() => {
      if (probing || stopped) return;
      probing = true;
      withDeadline(this.#connection.isValidAsync(), intervalMs)
        .catch(() => false)
        .then((alive) => {
          probing = false;
          if (alive !== true && !stopped) onDead();
        });
    }, intervalMs);
    timer.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }

  #dropStream(): void {
    this.#running?.abandon(
      new OperationalError("The result stream was abandoned: its connection ran another statement or was returned"),
    );
    this.#running = undefined;
  }

  get #housekeepingMs(): number {
    return this.#options.housekeepingTimeoutMs ?? 10_000;
  }

  #run(
    sql: string,
    parameters: readonly unknown[],
    streamResult: boolean,
    label: StatementLabel | undefined,
  ): Promise<{ statement: RowStatement; rows: unknown[] | undefined; guard: Guard; target: { current: Running } }> {
    if (this.#closed !== undefined) return Promise.reject(new OperationalError("The backend A connection is closed"));
    // A stream its reader never closed: the connection has moved on (the pool hands it to one
    // user at a time), so end that stream.
    if (this.#running?.streaming) this.#dropStream();
    if (this.#running !== undefined) {
      return Promise.reject(new OperationalError("The backend A connection is already running a statement"));
    }
    let binds: (string | number | boolean | null)[];
    try {
      binds = parameters.map(toSnowflakeBind);
    } catch (error) {
      // A value the backend cannot take exactly is the caller's mistake, not the connection's.
      return Promise.reject(
        error instanceof ValidationError ? error : new OperationalError((error as Error).message, { cause: error }),
      );
    }
    const secrets = this.#options.secrets ?? [];
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      // The rows of a result read here (not streamed): destroyed when the statement is abandoned.
      let collecting: Readable | undefined;
      const running: Running = {
        statement: undefined,
        abandon: (error) => {
          collecting?.destroy();
          finish(() => reject(error));
        },
      };
      let stopWatching = (): void => undefined;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        stopWatching();
        if (timer !== undefined) clearTimeout(timer);
        if (this.#running === running) this.#running = undefined;
        settle();
      };
      this.#running = running;
      // Whatever the sdk throws in its own callbacks fails this statement (or its stream), not the process.
      const target = { current: running };
      const guard = containment((error) => {
        this.#broken = true;
        const cause = SnowflakeDriverError.from(error, secrets);
        target.current.abandon(
          new InternalError(`Backend A's driver failed reading the warehouse's answer: ${cause.message}`, {
            cause,
            code: "driver_failure",
          }),
        );
      });
      stopWatching = this.#watchLiveness(() => {
        this.#broken = true;
        try {
          running.statement?.cancel();
        } catch {
          // already finished
        }
        const ms = this.#options.livenessIntervalMs;
        finish(() =>
          reject(
            new OperationalError(
              `Backend A stopped answering while the statement ran (no heartbeat answer within ${ms} ms)`,
              { code: "warehouse_unreachable" },
            ),
          ),
        );
      });
      const timeoutMs = this.#options.requestTimeoutMs;
      if (timeoutMs !== undefined && timeoutMs > 0) {
        timer = setTimeout(() => {
          this.#broken = true;
          try {
            running.statement?.cancel();
          } catch {
            // already finished
          }
          finish(() =>
            reject(
              new OperationalError(`Backend A did not answer the statement within request_timeout (${timeoutMs} ms)`, {
                code: "request_timeout",
              }),
            ),
          );
        }, timeoutMs);
        timer.unref();
      }
      try {
        const tag = queryTagOf(this.#options.queryTag, label);
        running.statement = guard.run(() =>
          this.#connection.execute({
            sqlText: sql,
            binds,
            ...(tag === undefined ? {} : { parameters: { QUERY_TAG: tag } }),
            rowMode: "array",
            fetchAsString: ["Number"],
            // Always: the sdk's own collecting of rows would run where no guard reaches (snowflake-containment.ts).
            streamResult: true,
            complete: (error, statement) => {
              markEnded(running);
              if (error) {
                if (isConnectionLevelError(error)) this.#broken = true;
                finish(() => reject(mapSnowflakeError(SnowflakeDriverError.from(error, secrets))));
                return;
              }
              if (BEGIN.test(sql)) this.#inTransaction = true;
              else if (END.test(sql)) this.#inTransaction = false;
              const done = statement as RowStatement;
              guard.columns(done);
              if (streamResult) {
                finish(() => resolve({ statement: done, rows: undefined, guard, target }));
                return;
              }
              collecting = collectRows(guard, done, (failure, rows) => {
                if (failure !== undefined && isConnectionLevelError(failure)) this.#broken = true;
                finish(() =>
                  failure === undefined
                    ? resolve({ statement: done, rows, guard, target })
                    : reject(mapSnowflakeError(SnowflakeDriverError.from(failure, secrets))),
                );
              });
            },
          }),
        ) as RowStatement;
      } catch (error) {
        // Bad arguments are thrown synchronously by the sdk.
        finish(() => reject(mapSnowflakeError(SnowflakeDriverError.from(error, secrets))));
      }
    });
  }
}

/** The statement's Snowflake query id (the sdk knows it once the query-request was answered). */
function queryIdOf(statement: RowStatement): string | undefined {
  const id = statement.getQueryId();
  return typeof id === "string" && id !== "" ? id : undefined;
}

function columnsOf(statement: RowStatement): SnowflakeColumn[] {
  return (statement.getColumns() ?? []).map(snowflakeColumn);
}
