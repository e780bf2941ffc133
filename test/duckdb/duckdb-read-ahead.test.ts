/**
 * A streamed DuckDB result read in bulk (a reader asked for columns: `iterInto()`, `stream()`, the
 * Arrow reads) fetches the next chunk while the caller reads the current one — never more than one
 * ahead, and `close()` interrupts it if it still runs and waits for it, so the connection is never handed
 * on with a fetch running on it. Row reads fetch on demand.
 */
import { expect } from "chai";
import { DuckDBInstance, type DuckDBConnection, type DuckDBResult } from "@duckdb/node-api";
import { streamOfResult, type OperationCounter } from "../../runtime/dialects/duckdb/duckdb-results.js";
import { failureOf } from "../support/failures.js";

interface Counts {
  started: number;
  settled: number;
}

/**
 * `real` with its fetches counted (started, settled); fetch number `failAt` (1-based) rejects. Without
 * the native handle node-api keeps, the stream reads through `fetchChunk()` (duckdb-native-stream.ts).
 */
function counted(real: DuckDBResult, counts: Counts, failAt?: number): DuckDBResult {
  const result = {
    columnTypes: () => real.columnTypes(),
    columnName: (i: number) => real.columnName(i),
    get isStreaming() {
      return real.isStreaming;
    },
    fetchChunk: () => {
      const n = ++counts.started;
      const fetching = n === failAt ? Promise.reject(new Error(`fetch ${n} failed`)) : real.fetchChunk();
      return fetching.finally(() => counts.settled++);
    },
  };
  return result as unknown as DuckDBResult;
}

/** Counts the fetches in flight and the interrupts; `onInterrupt` reaches the real connection. */
const operations = (onInterrupt?: () => void): OperationCounter & { running: number; interrupts: number } => ({
  running: 0,
  interrupts: 0,
  operationStarted() {
    this.running++;
  },
  operationSettled() {
    this.running--;
  },
  interrupt() {
    this.interrupts++;
    onInterrupt?.();
  },
});

describe("duckdb: a bulk read fetches one chunk ahead", () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  before(async () => {
    instance = await DuckDBInstance.create(":memory:");
    connection = await instance.connect();
  });
  after(() => {
    connection.closeSync();
    instance.closeSync();
  });
  const SQL = "SELECT i::INTEGER AS i FROM range(10000) t(i)"; // five chunks

  it("a columnar reader has at most one fetch ahead of the chunks it read; row reads none; close() waits for it", async () => {
    const ops = operations();
    let counts = { started: 0, settled: 0 };
    const rows = streamOfResult(counted(await connection.stream(SQL), counts), ops)[Symbol.asyncIterator]();
    await rows.next();
    await rows.next();
    expect(counts.started, "row reads fetch on demand").to.equal(2);

    counts = { started: 0, settled: 0 };
    const stream = streamOfResult(counted(await connection.stream(SQL), counts), ops);
    expect(stream.preferColumns!()).to.equal(true);
    const chunks = stream[Symbol.asyncIterator]();
    let read = 0;
    let values = 0;
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
      read++;
      values += next.value[0]!.length;
      expect(counts.started, `after chunk ${read}`).to.equal(read + 1);
    }
    expect([read, values]).to.deep.equal([5, 10_000]);

    counts = { started: 0, settled: 0 };
    const early = streamOfResult(counted(await connection.stream(SQL), counts), ops);
    early.preferColumns!();
    const first = await early[Symbol.asyncIterator]().next();
    expect(first.done).to.equal(false);
    const before = counts.started;
    expect(counts.settled, "the fetch ahead is still running").to.be.below(before);
    await early.close();
    expect([counts.settled, counts.started, ops.running]).to.deep.equal([before, before, 0]);
    expect(ops.interrupts, "close() interrupted the fetch still running (this counter does not reach DuckDB)").to.equal(
      1,
    );
  });

  it("close() interrupts a fetch ahead that DuckDB is still computing; the connection then runs its next statement", async () => {
    const ops = operations(() => connection.interrupt());
    const counts = { started: 0, settled: 0 };
    // ~1 MB hashed per chunk: the fetch ahead is still running when the first chunk has been read.
    const slow = "SELECT i, md5(repeat(i::VARCHAR, 100)) AS h FROM range(1000000) t(i)";
    const stream = streamOfResult(counted(await connection.stream(slow), counts), ops);
    stream.preferColumns!();
    expect((await stream[Symbol.asyncIterator]().next()).done).to.equal(false);
    expect(counts.started - counts.settled, "the fetch ahead is running").to.equal(1);
    await stream.close();
    expect([ops.interrupts, ops.running, counts.settled]).to.deep.equal([1, 0, counts.started]);
    // The interrupt ended that statement only (DuckDB answers the interrupted fetch with an empty chunk).
    expect((await connection.runAndReadAll("SELECT 42 AS x")).getRows()).to.deep.equal([[42]]);
  });

  it("a fetch ahead that fails surfaces once, when its chunk is read, and is reported once", async () => {
    const noted: unknown[] = [];
    const stream = streamOfResult(counted(await connection.stream(SQL), { started: 0, settled: 0 }, 3), operations());
    stream.observeReadFailures!({ noteError: (error) => noted.push(error) });
    stream.preferColumns!();
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).done).to.equal(false);
    expect((await chunks.next()).done).to.equal(false);
    expect(noted, "not before the caller reaches it").to.have.length(0);
    const error = await failureOf(chunks.next());
    expect(error.message).to.contain("fetch 3 failed");
    expect(await chunks.next()).to.deep.equal({ done: true, value: undefined });
    expect(noted).to.deep.equal([error]);
  });

  it("closing with a failed fetch ahead reports it once and closes quietly", async () => {
    const noted: unknown[] = [];
    const stream = streamOfResult(counted(await connection.stream(SQL), { started: 0, settled: 0 }, 2), operations());
    stream.observeReadFailures!({ noteError: (error) => noted.push(error) });
    stream.preferColumns!();
    expect((await stream[Symbol.asyncIterator]().next()).done).to.equal(false);
    await stream.close();
    expect(noted).to.have.length(1);
    expect(String(noted[0])).to.contain("fetch 2 failed");
  });
});
