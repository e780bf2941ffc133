/**
 * Whole results (`conn.all()`, `conn.execute()`, the semantic layer's own SQL) run materialized and
 * read every chunk without a wait (runtime/dialects/duckdb/duckdb-materialized.ts): one native round
 * trip where node-api's `runAndReadAll()` makes one per chunk plus one for the end. Native async
 * calls are counted as the async resources the bindings create (node-addon-api's "generic" workers).
 */
import { expect } from "chai";
import { runPrepared, materializedResult } from "../../runtime/dialects/duckdb/duckdb-materialized.js";
import { plainEngine } from "../support/engines.js";
import { countingNativeCalls } from "../support/native-calls.js";
import { withMemoryDuckDB } from "../support/memory-duckdb.js";

describe("duckdb: whole results read in one native round trip", () => {
  it("finds node-api's native handle and answers what node-api's own runAndReadAll() answers", async () => {
    await withMemoryDuckDB(async (connection) => {
      const prepared = await connection.prepare("SELECT i, i::VARCHAR AS s FROM range(5000) t(i) WHERE i >= $1");
      prepared.bindBigInt(1, 10n);
      expect(Object.keys(prepared), "node-api's prepared statement keeps its native handle").to.include(
        "prepared_statement",
      );
      const { value: result, calls } = await countingNativeCalls(() => runPrepared(prepared));
      expect(calls).to.equal(1);
      const { rows, columns } = materializedResult(result);
      const own = await prepared.runAndReadAll();
      expect(rows).to.have.length(4990); // three chunks
      expect(rows).to.deep.equal(own.getRows().map(([i, s]) => [i, s]));
      expect(columns.map((c) => [c.name, c.type, c.kind])).to.deep.equal([
        ["i", "BIGINT", "bigint"],
        ["s", "VARCHAR", "string"],
      ]);
    });
  });

  it("conn.all() and execute() of a kept statement make one native call, every chunk read in order", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const sql = "SELECT i, i % 3 = 0 AS b FROM range(5000) t(i) ORDER BY i";
    await conn.all(sql); // prepared and kept
    const all = await countingNativeCalls(() => conn.all(sql));
    expect(all.calls, "node-api's runAndReadAll() makes 5 here: run, 3 chunks, the end").to.equal(1);
    expect(all.value).to.have.length(5000);
    expect(all.value[0]).to.deep.equal({ i: 0n, b: true });
    expect(all.value[4999]).to.deep.equal({ i: 4999n, b: false });
    expect(all.value.every((row, i) => row["i"] === BigInt(i))).to.equal(true);
    const executed = await countingNativeCalls(() => conn.execute("SELECT 1 AS one"));
    expect(executed.value.rows).to.deep.equal([[1]]);
    const again = await countingNativeCalls(() => conn.execute("SELECT 1 AS one"));
    expect(executed.calls, "prepared (kept), then run").to.equal(2);
    expect(again.calls).to.equal(1);
    expect(again.value.columns).to.equal(executed.value.columns); // the kept statement's shared column plan
  });

  it("an empty result and a script's last statement read the same way", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const empty = await conn.execute("SELECT 1 AS one WHERE false");
    expect(empty.rows).to.deep.equal([]);
    expect(empty.columns.map((c) => c.name)).to.deep.equal(["one"]);
    expect(await conn.all("CREATE TEMP TABLE s AS SELECT 2 AS v; SELECT v, v * 2 AS w FROM s")).to.deep.equal([
      { v: 2, w: 4 },
    ]);
  });
});
