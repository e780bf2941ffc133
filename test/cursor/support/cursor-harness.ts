/**
 * What the cursor tests need from an engine: pooled connections from a real backend C engine
 * (in-memory DuckDB, pool size 1), the pool's borrowed count, and a count of driver chunk pulls
 * (every connection handed out is wrapped so its streams count `next()` calls on their chunk iterator).
 */
import { expect } from "chai";
import type { ResultStream } from "../../../runtime/driver/query-result.js";
import type { StreamOptions } from "../../../runtime/driver/database-connection.js";
import type { PooledConnection } from "../../../runtime/engine/pooled-connection.js";
import { createEngine } from "../../../runtime/engine/create-engine.js";
import { BackendCConfig } from "../../../runtime/dialects/duckdb/duckdb-config.js";
import { openCursor, type OpenCursorOptions } from "../../../runtime/cursor/open-cursor.js";
import type { Cursor } from "../../../runtime/cursor/cursor.js";

export interface Harness {
  connect(): Promise<PooledConnection>;
  borrowed(): number;
  pulls(): number;
  cursor<Row = Record<string, unknown>>(
    sql: string,
    parameters?: readonly unknown[],
    options?: OpenCursorOptions,
  ): Promise<Cursor<Row>>;
  dispose(): Promise<void>;
}

type StreamFn = PooledConnection["stream"];

/** A PooledConnection that delegates to `inner`, with `stream` replaced. */
export function withStream(
  inner: PooledConnection,
  stream: (inner: PooledConnection, ...args: Parameters<StreamFn>) => ReturnType<StreamFn>,
): PooledConnection {
  return {
    run: (sql, parameters) => inner.run(sql, parameters),
    all: (sql, parameters) => inner.all(sql, parameters),
    execute: (sql, parameters) => inner.execute(sql, parameters),
    stream: (sql, parameters, options) => stream(inner, sql, parameters, options),
    interrupt: () => inner.interrupt(),
    commit: () => inner.commit(),
    rollback: () => inner.rollback(),
    release: () => inner.release(),
    get released() {
      return inner.released;
    },
    [Symbol.asyncDispose]: () => inner.release(),
  };
}

/**
 * A stream whose chunk iterator is the given generator over `inner`'s chunks. It asks `inner` for
 * column-major chunks when its reader does (as the streamed row reads do on DuckDB).
 */
export function mapChunks(
  inner: ResultStream,
  chunks: (source: AsyncIterable<unknown[][]>) => AsyncIterable<unknown[][]>,
): ResultStream {
  const preferColumns = inner.preferColumns?.bind(inner);
  return {
    columns: inner.columns,
    close: () => inner.close(),
    [Symbol.asyncIterator]: () => chunks(inner)[Symbol.asyncIterator](),
    ...(preferColumns === undefined ? {} : { preferColumns }),
  };
}

export async function openHarness(): Promise<Harness> {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  let pulls = 0;
  const counting = async (
    inner: PooledConnection,
    sql: string,
    parameters?: readonly unknown[],
    options?: StreamOptions,
  ): Promise<ResultStream> =>
    mapChunks(await inner.stream(sql, parameters, options), (source) => ({
      [Symbol.asyncIterator]() {
        const iterator = source[Symbol.asyncIterator]();
        return {
          next: () => {
            pulls++;
            return iterator.next();
          },
          return: async () => (iterator.return ? iterator.return() : { done: true as const, value: undefined }),
        };
      },
    }));
  const connect = async (): Promise<PooledConnection> => withStream(await engine.connect(), counting);
  return {
    connect,
    borrowed: () => engine._pool.borrowed,
    pulls: () => pulls,
    cursor: async (sql, parameters = [], options) => openCursor(await connect(), { sql, parameters }, options),
    dispose: () => engine.dispose(),
  };
}

/**
 * Mocha hooks: one harness for the whole `describe`, disposed afterwards; after every test the
 * pool must have its connection back.
 */
export function useHarness(): Omit<Harness, "dispose"> {
  let current: Harness | undefined;
  before(async () => {
    current = await openHarness();
  });
  after(async () => {
    await current?.dispose();
    current = undefined;
  });
  afterEach(() => expect(current?.borrowed(), "every test returns its connection").to.equal(0));
  const harness = (): Harness => {
    if (current === undefined) throw new Error("useHarness(): the harness exists only inside the describe");
    return current;
  };
  return {
    connect: () => harness().connect(),
    borrowed: () => harness().borrowed(),
    pulls: () => harness().pulls(),
    cursor: <Row = Record<string, unknown>>(
      sql: string,
      parameters?: readonly unknown[],
      options?: OpenCursorOptions,
    ) => harness().cursor<Row>(sql, parameters, options),
  };
}
