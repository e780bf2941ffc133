/**
 * Wraps a backend driver so that every physical connection reports to the engine's `log` option
 * and to the `lib:*` tracing channels: opening and closing connections, and each statement with its
 * SQL, parameter count, duration, row count or error. Members the wrapper does not observe are
 * forwarded untouched, so driver-specific methods keep working.
 */
import type {
  DatabaseConnection,
  Driver,
  QueryResult,
  ResultStream,
  StreamOptions,
} from "../driver/database-connection.js";
import { connectChannel, queryChannel, traced } from "./channels.js";
import type { Observer } from "./observer.js";

/** Marks a connection the pool is about to close for `recycle`, so its close event says so. */
const RECYCLING = Symbol("lib.recycling");

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
      return instrumentConnection(connection, observer);
    },
    destroy: () => driver.destroy(),
  };
  // The pool's invalidation asks the driver which errors mean "connection is dead": keep that answer.
  if (driver.isDisconnect !== undefined) instrumented.isDisconnect = (error) => driver.isDisconnect!(error);
  return instrumented;
}

/** Tells an instrumented connection that its next close is a recycle (no-op for others). */
export function markRecycling(connection: DatabaseConnection): void {
  (connection as { [RECYCLING]?: boolean })[RECYCLING] = true;
}

function instrumentConnection(connection: DatabaseConnection, observer: Observer): DatabaseConnection {
  let recycling = false;
  const overrides = {
    async execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
      const started = performance.now();
      const parameterCount = parameters?.length ?? 0;
      try {
        const result = await traced(queryChannel, { backend: observer.backend, sql, parameterCount }, () =>
          connection.execute(sql, parameters),
        );
        observer.emit({ type: "query", sql, parameterCount, rows: result.rows.length }, started);
        return result;
      } catch (error) {
        observer.emit({ type: "query-error", sql, parameterCount, error }, started);
        throw error;
      }
    },
    async stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
      const started = performance.now();
      const parameterCount = parameters?.length ?? 0;
      let stream: ResultStream;
      try {
        stream = await traced(queryChannel, { backend: observer.backend, sql, parameterCount }, () =>
          connection.stream(sql, parameters, options),
        );
      } catch (error) {
        observer.emit({ type: "query-error", sql, parameterCount, error }, started);
        throw error;
      }
      return observer.logging
        ? countingStream(stream, (rows, error) => {
            if (error === undefined) observer.emit({ type: "query", sql, parameterCount, rows }, started);
            else observer.emit({ type: "query-error", sql, parameterCount, error }, started);
          })
        : stream;
    },
    async close(): Promise<void> {
      const started = performance.now();
      try {
        await connection.close();
      } finally {
        observer.emit({ type: "connection", action: recycling ? "recycle" : "close" }, started);
      }
    },
  };
  return new Proxy(connection, {
    get(target, property) {
      if (property === "execute" || property === "stream" || property === "close") return overrides[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value) {
      if (property === RECYCLING) {
        recycling = value === true;
        return true;
      }
      return Reflect.set(target, property, value, target);
    },
  });
}

/** A stream that counts the rows read and reports once: at its end, at close(), or on an error. */
function countingStream(stream: ResultStream, done: (rows: number, error?: unknown) => void): ResultStream {
  let rows = 0;
  let columnar = false; // after preferColumns() said yes, a chunk is one array per column
  let reported = false;
  const report = (error?: unknown): void => {
    if (reported) return;
    reported = true;
    done(rows, error);
  };
  const preferColumns = stream.preferColumns?.bind(stream);
  return {
    columns: stream.columns,
    ...(preferColumns === undefined ? {} : { preferColumns: () => (columnar = preferColumns()) }),
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
