/**
 * Wraps a backend driver so that every physical connection reports to the engine's `log` option
 * and to the `lib:*` tracing channels: opening and closing connections, and each statement with its
 * SQL, parameter count, duration, row count or error. Each call first asks whether anyone listens
 * (the `log` option, a channel subscriber): when nobody does, it goes straight to the driver's
 * connection, with nothing allocated and nothing timed. A subscriber added later sees the next call.
 */
import type { DatabaseConnection, StreamOptions } from "../driver/database-connection.js";
import type { Driver } from "../driver/driver.js";
import type { QueryResult, ResultStream } from "../driver/query-result.js";
import { connectChannel, isTraced, queryChannel, traced, type QueryTraceContext } from "./channels.js";
import type { Observer } from "./observer.js";

export function instrumentDriver(driver: Driver, observer: Observer): Driver {
  const instrumented: Driver = {
    async openConnection(): Promise<DatabaseConnection> {
      const started = performance.now();
      let connection: DatabaseConnection;
      try {
        connection = await traced(connectChannel, { backend: observer.backend }, () => driver.openConnection());
      } catch (error) {
        observer.emit({ type: "connection", action: "open-error", error }, started);
        throw error;
      }
      observer.emit({ type: "connection", action: "open" }, started);
      return new InstrumentedConnection(connection, observer);
    },
    destroy: () => driver.destroy(),
  };
  // The pool's invalidation asks the driver which errors mean "connection is dead": keep that answer.
  if (driver.isDisconnect !== undefined) instrumented.isDisconnect = (error) => driver.isDisconnect!(error);
  return instrumented;
}

/** Tells an instrumented connection that its next close is a recycle (no-op for others). */
export function markRecycling(connection: DatabaseConnection): void {
  if (connection instanceof InstrumentedConnection) connection.recycling = true;
}

/** The driver's own connection behind an instrumented one (tests reach driver-specific members this way). */
export function driverConnectionOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof InstrumentedConnection ? connection.inner : connection;
}

class InstrumentedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #observer: Observer;
  /** Set by the pool just before it closes the connection for `recycle`, so the close event says so. */
  recycling = false;

  constructor(inner: DatabaseConnection, observer: Observer) {
    this.inner = inner;
    this.#observer = observer;
  }

  get createdAt(): number {
    return this.inner.createdAt;
  }

  /** Whether this statement is to be reported: read per call, so a subscriber added later counts. */
  #observed(): boolean {
    return this.#observer.logging || isTraced(queryChannel);
  }

  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    if (!this.#observed()) return this.inner.execute(sql, parameters);
    return this.#executeObserved(sql, parameters);
  }

  async #executeObserved(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    const observer = this.#observer;
    const started = performance.now();
    const parameterCount = parameters?.length ?? 0;
    const context: QueryTraceContext = { backend: observer.backend, sql, parameterCount };
    try {
      const result = await traced(queryChannel, context, () =>
        this.inner.execute(sql, parameters).then(withQueryId(context), failedWithQueryId(context)),
      );
      observer.emit({ type: "query", sql, parameterCount, rows: result.rows.length, queryId: result.queryId }, started);
      return result;
    } catch (error) {
      observer.emit({ type: "query-error", sql, parameterCount, error, queryId: queryIdOfError(error) }, started);
      throw error;
    }
  }

  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    if (!this.#observed()) return this.inner.stream(sql, parameters, options);
    return this.#streamObserved(sql, parameters, options);
  }

  async #streamObserved(
    sql: string,
    parameters: readonly unknown[] | undefined,
    options: StreamOptions | undefined,
  ): Promise<ResultStream> {
    const observer = this.#observer;
    const started = performance.now();
    const parameterCount = parameters?.length ?? 0;
    let stream: ResultStream;
    const context: QueryTraceContext = { backend: observer.backend, sql, parameterCount };
    try {
      stream = await traced(queryChannel, context, () =>
        this.inner.stream(sql, parameters, options).then(withQueryId(context), failedWithQueryId(context)),
      );
    } catch (error) {
      observer.emit({ type: "query-error", sql, parameterCount, error, queryId: queryIdOfError(error) }, started);
      throw error;
    }
    const queryId = stream.queryId;
    return observer.logging
      ? countingStream(stream, (rows, error) => {
          if (error === undefined) observer.emit({ type: "query", sql, parameterCount, rows, queryId }, started);
          else
            observer.emit(
              { type: "query-error", sql, parameterCount, error, queryId: queryIdOfError(error) ?? queryId },
              started,
            );
        })
      : stream;
  }

  async close(): Promise<void> {
    const started = performance.now();
    try {
      await this.inner.close();
    } finally {
      this.#observer.emit({ type: "connection", action: this.recycling ? "recycle" : "close" }, started);
    }
  }

  interrupt(): void {
    this.inner.interrupt();
  }

  ping(): Promise<boolean> {
    return this.inner.ping();
  }

  isStale(): boolean {
    return this.inner.isStale?.() ?? false;
  }

  commit(): Promise<void> {
    return this.inner.commit();
  }

  rollback(): Promise<void> {
    return this.inner.rollback();
  }

  reset(): Promise<void> {
    return this.inner.reset();
  }
}

/** Copies the statement id of an answer onto the trace context (subscribers read it at asyncEnd). */
function withQueryId(context: QueryTraceContext) {
  return <T extends { readonly queryId?: string | undefined }>(answer: T): T => {
    if (answer.queryId !== undefined) context.queryId = answer.queryId;
    return answer;
  };
}

/** The same for a failure: the error's statement id, when the warehouse reported one. */
function failedWithQueryId(context: QueryTraceContext) {
  return (error: unknown): never => {
    const queryId = queryIdOfError(error);
    if (queryId !== undefined) context.queryId = queryId;
    throw error;
  };
}

/** `WarehouseError.queryId`, read by shape (observability sits below the error classes' users). */
function queryIdOfError(error: unknown): string | undefined {
  const queryId = (error as { readonly queryId?: unknown } | null)?.queryId;
  return typeof queryId === "string" ? queryId : undefined;
}

/** A stream that counts the rows read and reports once: at its end, at close(), or on an error. */
function countingStream(stream: ResultStream, done: (rows: number, error?: unknown) => void): ResultStream {
  let rows = 0;
  let columnar = false; // after preferColumns() said yes, a chunk is one array (or TypedColumn) per column
  let reported = false;
  const report = (error?: unknown): void => {
    if (reported) return;
    reported = true;
    done(rows, error);
  };
  const preferColumns = stream.preferColumns?.bind(stream);
  return {
    columns: stream.columns,
    ...(preferColumns === undefined ? {} : { preferColumns: (options) => (columnar = preferColumns(options)) }),
    async close(): Promise<void> {
      try {
        await stream.close();
      } finally {
        report();
      }
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<unknown[][]> {
      try {
        for await (const chunk of stream) {
          rows += columnar ? (chunk[0]?.length ?? 0) : chunk.length;
          yield chunk;
        }
      } catch (error) {
        report(error);
        throw error;
      }
      report();
    },
  };
}
