/**
 * A cursor whose statement DuckDB computes whole before its first row anyway (a semantic query
 * without facts: an aggregate, or SELECT DISTINCT of dimensions) runs it materialized and reads every
 * chunk without a wait: one native round trip on a kept statement
 * (runtime/dialects/duckdb/duckdb-materialized-stream.ts). Facts queries and hand-written SQL stream
 * (a call per chunk plus one for the end). Native async calls are counted as the async resources the
 * bindings create (node-addon-api's "generic" workers), as duckdb-materialized.test.ts does. The
 * cancellation of a slow materialized aggregate (timeoutMs, AbortSignal): duckdb-cancel.test.ts.
 */
import { expect } from "chai";
import { Type } from "typebox";
import {
  BackendCConfig,
  BigIntType,
  DateType,
  DecimalType,
  Dimension,
  Fact,
  Metric,
  SemanticView,
  createEngine,
  type Engine,
  type LogEvent,
} from "lib";
import { materializedStream } from "../../runtime/dialects/duckdb/duckdb-materialized-stream.js";
import { failureOf } from "../support/failures.js";
import { countingNativeCalls } from "../support/native-calls.js";
import { withMemoryDuckDB } from "../support/memory-duckdb.js";

const GROUPS = 5_000; // three DuckDB chunks of groups (2048 + 2048 + 904)
const ROWS = 2 * GROUPS; // five chunks of facts

/** Row i: group i % 5000, amount i / 4 (exact), day 2000-01-01 + group, a NULL label every 7th group. */
const SEED = [
  `CREATE TABLE m_data AS SELECT i::BIGINT AS i, (i % ${GROUPS})::BIGINT AS g, (i / 4)::DECIMAL(18,2) AS amount,
     DATE '2000-01-01' + (i % ${GROUPS})::INTEGER AS day,
     CASE WHEN i % ${GROUPS} % 7 = 0 THEN NULL ELSE 'x' || (i % 5) END AS label
   FROM range(${ROWS}) t(i)`,
  `CREATE SEMANTIC VIEW m AS TABLES (d AS m_data)
     FACTS (d.amount_fact AS amount, d.i_fact AS i)
     DIMENSIONS (d.g AS g, d.day AS day)
     METRICS (d.total AS SUM(amount), d.n AS COUNT(*), d.bad AS SUM(CAST(label AS INTEGER)))`,
];

class M extends SemanticView("m", {
  g: Dimension<bigint>(),
  day: Dimension<Date>(),
  amount_fact: Fact(),
  i_fact: Fact<bigint>(),
  total: Metric(),
  n: Metric<bigint>(),
  bad: Metric<bigint>(),
}) {}

const ByGroup = Type.Object({
  g: BigIntType(),
  day: DateType({ format: "date" }),
  total: DecimalType(),
  n: BigIntType(),
});

const byGroup = M.query().dimensions(M.g, M.day).metrics(M.total, M.n).orderBy(M.g.asc());
const facts = M.query().dimensions(M.g).facts(M.i_fact, M.amount_fact).orderBy(M.i_fact.asc());
const groupsOnly = M.query().dimensions(M.g).orderBy(M.g.asc());

/** `amount` of row i as DuckDB computes `(i / 4)::DECIMAL(18,2)` (a double rounded half away from zero). */
const cents = (i: number): bigint => BigInt(Math.round((i / 4) * 100));
const asDecimalText = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`;
/** Group g's expected row: its two rows g and g + 5000. */
function expectedGroup(g: number): string {
  const day = new Date(Date.UTC(2000, 0, 1 + g)).toISOString().slice(0, 10);
  return `${g}|${day}|${asDecimalText(cents(g) + cents(g + GROUPS))}|2`;
}
const groupText = (r: { g: bigint; day: Date; total: unknown; n: bigint }): string =>
  `${r.g}|${r.day.toISOString().slice(0, 10)}|${String(r.total)}|${r.n}`;

describe("duckdb: a cursor over a result DuckDB computes whole reads it in one native round trip", function () {
  this.timeout(60_000);
  let engine: Engine;
  const events: LogEvent[] = [];

  before(async () => {
    engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
      log: (event) => events.push(event),
    });
    await using conn = await engine.connect();
    for (const sql of SEED) await conn.run(sql);
    await conn.commit();
  });
  after(() => engine.dispose());

  it("a query with metrics and a dimensions-only query make one native call; a facts query streams", async () => {
    const read = async (q: typeof byGroup | typeof facts | typeof groupsOnly) => {
      await using cursor = await q.using(engine).execute();
      return await cursor.fetchAllRows();
    };
    for (const q of [byGroup, facts, groupsOnly]) await read(q); // rewritten, probed and prepared once

    const metrics = await countingNativeCalls(() => read(byGroup));
    expect(metrics.calls, "materialized: the run only (streamed: run, 3 chunks, end)").to.equal(1);
    expect(metrics.value).to.have.length(GROUPS);
    const distinct = await countingNativeCalls(() => read(groupsOnly));
    expect(distinct.calls).to.equal(1);
    expect(distinct.value.map((r) => r.g)).to.deep.equal(Array.from({ length: GROUPS }, (_, g) => BigInt(g)));

    const streamed = await countingNativeCalls(() => read(facts));
    expect(streamed.calls, "streamed: run, 5 chunks, end").to.equal(7);
    expect(streamed.value).to.have.length(ROWS);
  });

  it("hand-written SQL through a connection's stream() streams, even when it aggregates", async () => {
    await using conn = await engine.connect();
    const sql = `SELECT g, SUM(amount) AS total FROM m_data GROUP BY g ORDER BY g`;
    const readAll = async () => {
      const stream = await conn.stream(sql);
      let rows = 0;
      for await (const chunk of stream) rows += chunk.length;
      return rows;
    };
    await readAll();
    const counted = await countingNativeCalls(readAll);
    expect(counted.value).to.equal(GROUPS);
    expect(counted.calls).to.equal(5);
  });

  it("every read mode gives exact values across chunks: into, iterInto, fetchAllRows, fetchArrow, streamArrow", async () => {
    const expected = Array.from({ length: GROUPS }, (_, g) => expectedGroup(g)).join("\n");
    {
      await using cursor = await byGroup.using(engine).execute();
      expect(cursor.servedFrom).to.equal("warehouse");
      expect(cursor.columns.map((c) => `${c.name} ${c.type}`)).to.deep.equal([
        "g BIGINT",
        "day DATE",
        "total DECIMAL(38,2)",
        "n BIGINT",
      ]);
      expect((await cursor.into(ByGroup)).map(groupText).join("\n")).to.equal(expected);
    }
    {
      await using cursor = await byGroup.using(engine).execute();
      const rows: string[] = [];
      for await (const row of cursor.iterInto(ByGroup)) rows.push(groupText(row));
      expect(rows.join("\n")).to.equal(expected);
    }
    {
      // With a signal the cursor reads chunk by chunk (a watched read never takes all rows at once).
      await using cursor = await byGroup.using(engine).execute({ signal: new AbortController().signal });
      const rows = (await cursor.fetchAllRows()) as { g: bigint; day: Date; total: unknown; n: bigint }[];
      expect(rows.map(groupText).join("\n")).to.equal(expected);
    }
    {
      await using cursor = await byGroup.using(engine).execute();
      const table = await cursor.fetchArrow();
      expect(table.numRows).to.equal(GROUPS);
      const n = table.getChild("n")!;
      const g = table.getChild("g")!;
      expect([g.get(0), g.get(2048), g.get(GROUPS - 1), n.get(4096)]).to.deep.equal([0n, 2048n, 4999n, 2n]);
    }
    {
      await using cursor = await byGroup.using(engine).execute();
      let rows = 0;
      let last: unknown;
      for await (const batch of cursor.streamArrow()) {
        rows += batch.numRows;
        last = batch.getChild("g")!.get(batch.numRows - 1);
      }
      expect([rows, last]).to.deep.equal([GROUPS, 4999n]);
    }
    // The facts query, streamed: exact values across its five chunks too.
    await using cursor = await facts.using(engine).execute();
    const rows = await cursor.fetchAllRows();
    const text = rows.map((r) => `${String(r.i_fact)}|${String(r.g)}|${String(r.amount_fact)}`).join("\n");
    const want = Array.from({ length: ROWS }, (_, i) => `${i}|${i % GROUPS}|${asDecimalText(cents(i))}`).join("\n");
    expect(text).to.equal(want);
  });

  it("the log counts a materialized cursor's rows, whichever way it is read", async () => {
    events.length = 0;
    {
      await using cursor = await byGroup.using(engine).execute();
      await cursor.fetchAllRows();
    }
    {
      await using cursor = await byGroup.using(engine).execute();
      for await (const batch of cursor.streamArrow()) void batch;
    }
    const queries = events.filter((e) => e.type === "query" && e.sql === byGroup.using(engine).toSql());
    expect(queries.map((e) => (e as Extract<LogEvent, { type: "query" }>).rows)).to.deep.equal([GROUPS, GROUPS]);
  });

  it("an aggregate that fails while DuckDB computes it rejects at execute(), and the connection comes back", async () => {
    const failing = M.query().dimensions(M.g).metrics(M.bad);
    const error = await failureOf(failing.using(engine).execute());
    expect(error.message).to.match(/Could not convert string 'x\d' to INT32/);
    expect(engine._pool.borrowed).to.equal(0);
    await using cursor = await byGroup.using(engine).execute();
    expect(await cursor.fetchAllRows()).to.have.length(GROUPS);
  });
});

describe("duckdb: the stream over a materialized result", () => {
  it("yields its chunks, then the rest at once (drain); columns on request; a failed chunk read is reported once", async () => {
    await withMemoryDuckDB(async (connection) => {
      const result = await connection.run("SELECT i, i * 2 AS j FROM range(5000) t(i)");
      const stream = materializedStream(result);
      const chunks = stream[Symbol.asyncIterator]();
      const first = await chunks.next();
      expect(first.done === false && first.value.length).to.equal(2048);
      const rest = stream.drain!();
      expect(rest.map((row) => row[0])).to.deep.equal(Array.from({ length: 2952 }, (_, k) => BigInt(2048 + k)));
      expect(await chunks.next()).to.deep.equal({ done: true, value: undefined });
      expect(stream.drain!()).to.deep.equal([]);
      await stream.close();

      const columnar = materializedStream(await connection.run("SELECT i::INTEGER AS i FROM range(3) t(i)"));
      expect(columnar.preferColumns!()).to.equal(true);
      expect((await columnar[Symbol.asyncIterator]().next()).value).to.deep.equal([[0, 1, 2]]);

      const real = await connection.run("SELECT 1 AS one");
      const broken = Object.assign(Object.create(Object.getPrototypeOf(real) as object) as typeof real, real, {
        getChunk: () => {
          throw new Error("Conversion Error: broken chunk");
        },
      });
      const noted: unknown[] = [];
      const failing = materializedStream(broken);
      failing.observeReadFailures!({ noteError: (error) => noted.push(error) });
      const error = await failureOf(failing[Symbol.asyncIterator]().next());
      expect(error.message).to.contain("broken chunk");
      expect(noted).to.deep.equal([error]);
      expect(await failing[Symbol.asyncIterator]().next()).to.deep.equal({ done: true, value: undefined });
    });
  });
});
