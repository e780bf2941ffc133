/**
 * execute({ signal, timeoutMs }) reaches the running statement: a long aggregation on backend C is
 * interrupted, the promise rejects with QueryCancelledError, and the single pooled connection comes
 * back healthy. (No timing assertions.) These aggregates run materialized (a query with metrics:
 * duckdb-materialized-cursor.test.ts), so the interrupt reaches DuckDB's `execute_prepared`.
 */
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, QueryCancelledError, SemanticView, createEngine } from "lib";
import { failureOf } from "../support/failures.js";

class Huge extends SemanticView("huge", { total: Metric<bigint>(), bucket: Dimension<string>() }) {}

function hugeEngine() {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
  engine._pool.on("connect", async (conn) => {
    await conn.run("LOAD semantic_views");
    // A view, not a table: rows that only exist while a query runs. Several seconds of work
    // uninterrupted; sized so that a lost interrupt costs seconds, not minutes.
    await conn.run("CREATE VIEW huge_data AS SELECT (i % 97)::VARCHAR AS bucket, i AS v FROM range(300000000) t(i)");
    await conn.run(
      "CREATE OR REPLACE SEMANTIC VIEW huge AS TABLES (h AS huge_data) DIMENSIONS (h.bucket AS bucket) METRICS (h.total AS SUM(v))",
    );
    await conn.commit();
  });
  return engine;
}

describe("cancelling an executing query on backend C", function () {
  this.timeout(60_000);

  it("timeoutMs interrupts the statement and the connection comes back usable", async () => {
    await using engine = hugeEngine();
    const q = Huge.query().dimensions(Huge.bucket).metrics(Huge.total);
    const error = await failureOf(
      (async () => {
        await using cursor = await q.execute({ timeoutMs: 200 });
        return await cursor.fetchAllRows();
      })(),
    );
    expect(error).to.be.instanceOf(QueryCancelledError);
    expect((error as QueryCancelledError).reason).to.equal("timeout");
    expect(engine._pool.borrowed).to.equal(0);
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 42 AS answer")).to.deep.equal([{ answer: 42 }]);
  });

  it("an AbortSignal interrupts the statement", async () => {
    await using engine = hugeEngine();
    const controller = new AbortController();
    const q = Huge.query().metrics(Huge.total);
    const running = (async () => {
      await using cursor = await q.execute({ signal: controller.signal });
      return await cursor.fetchAllRows();
    })();
    setTimeout(() => controller.abort(), 200);
    const error = await failureOf(running);
    expect(error).to.be.instanceOf(QueryCancelledError);
    expect((error as QueryCancelledError).reason).to.equal("aborted");
    expect(engine._pool.borrowed).to.equal(0);
  });
});
