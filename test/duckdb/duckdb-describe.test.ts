/**
 * The built-in engine learns a semantic query's output types from its prepared `LIMIT 0` probe
 * (SqlSession.describe) instead of running it: the prepared statement must report the very names and
 * type texts a run reports, fail with the error a run fails with, and the probe must not run.
 */
import { expect } from "chai";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { Engine } from "lib";
import { describeOneStatement } from "../../runtime/dialects/duckdb/duckdb-one-statement.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { cSettings } from "../support/engines.js";
import { clearSemanticQueryCache } from "../../runtime/semantic/call/typed-query.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import type { SqlSession } from "../../runtime/semantic/semantic-layer.js";
import { defineView, fixedCatalog } from "../semantic/support/definitions.js";

const TABLE = `CREATE TABLE wide AS SELECT
  1::TINYINT AS i1, 2::HUGEINT AS h, 3::UHUGEINT AS uh, 12.5::DECIMAL(18,2) AS d18, 1.25::DECIMAL(38,10) AS d38,
  [1, 2]::INTEGER[] AS li, [1::HUGEINT] AS lh, [1, 2, 3]::INTEGER[3] AS arr, {'a': 1, 'b': 'x'} AS st,
  [{'a': 1.5::DECIMAL(4,1)}] AS lst, MAP {'k': 1} AS m, union_value(n := 1)::UNION(n INTEGER, s VARCHAR) AS u,
  'a'::mood AS e, DATE '2024-01-02' AS dt, TIMESTAMP '2024-01-02 03:04:05' AS ts, TIMESTAMPTZ '2024-01-02 03:04:05+00' AS tz,
  TIME '01:02:03' AS tm, INTERVAL 1 DAY AS iv, 'x'::BLOB AS b, gen_random_uuid() AS id, 1.5::DOUBLE AS f, 1.5::FLOAT AS r,
  TRUE AS ok, '101'::BIT AS bits, NULL AS nothing, 'text' AS s`;

describe("backend C: a statement's columns read from its prepared statement (the type probe not run)", () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  before(async () => {
    instance = await DuckDBInstance.create(":memory:");
    conn = await instance.connect();
    await conn.run("CREATE TYPE mood AS ENUM ('a', 'b')");
    await conn.run(TABLE);
  });
  after(() => {
    conn.closeSync();
    instance.closeSync();
  });

  const ran = async (sql: string, parameters: number) => {
    const reader = await conn.runAndReadAll(sql, parameters === 0 ? undefined : new Array<null>(parameters).fill(null));
    return reader.columnNames().map((name, i) => ({ name, type: reader.columnTypes()[i]!.toString() }));
  };

  it("reports the names and type texts a run reports (DECIMAL widths, HUGEINT, lists, structs, maps, unions, enums)", async () => {
    for (const [sql, parameters] of [
      ["SELECT * FROM wide", 0],
      [
        "SELECT * FROM (\nSELECT i1, SUM(h) AS total, sum(d18) AS dsum, avg(d38) AS davg, list(e) AS es FROM wide GROUP BY ALL\n) AS __sv_probe LIMIT 0",
        0,
      ],
      [
        "SELECT * FROM (\nSELECT s, d18 * 2 AS twice, st.a AS a, lst[1].a AS la FROM wide WHERE d18 >= $1 AND s <> $2\n) AS __sv_probe LIMIT 0",
        2,
      ],
      ['SELECT 1 AS "x", 2 AS "x", 3 AS "Mixed Case"', 0],
    ] as const) {
      const described = await describeOneStatement(conn, sql);
      expect(described, sql).to.deep.equal(await ran(sql, parameters));
    }
    expect((await describeOneStatement(conn, "SELECT * FROM wide"))!.find((c) => c.name === "e")!.type).to.equal(
      "ENUM('a', 'b')",
    );
  });

  it("fails with the error a run fails with; a PIVOT DuckDB expands into several statements is left to a run", async () => {
    for (const sql of [
      "SELECT missing FROM wide",
      "SELECT * FROM (\nSELECT li[1] + 'y' AS y FROM wide\n) AS p LIMIT 0",
      "SELEC 1",
    ]) {
      const error = await describeOneStatement(conn, sql).then(
        () => expect.fail(`${sql} should fail`),
        (e: unknown) => e as Error,
      );
      const fromRun = await ran(sql, 0).then(
        () => expect.fail(`${sql} should fail`),
        (e: unknown) => e as Error,
      );
      expect(error.message, sql).to.equal(fromRun.message);
    }
    expect(await describeOneStatement(conn, "PIVOT wide ON s USING count(*)")).to.equal(undefined);
  });

  // The extension runs `<expanded> LIMIT 0` (duckdb_query) and wraps only that run's error. A LIMIT 0 run
  // evaluates no expression, so SQL that binds but fails on its values (a string constant cast, an
  // overflow, error()) passes the probe either way and fails only in the real run: describe must agree.
  it("agrees with a LIMIT 0 run on SQL that binds but fails when its values are computed", async () => {
    for (const body of [
      "SELECT i1 + 'x' AS y FROM wide",
      "SELECT 'x'::INTEGER AS y",
      "SELECT s, SUM(li[1]) AS y FROM wide WHERE dt > 'x' GROUP BY s",
      "SELECT s FROM wide GROUP BY s HAVING SUM(i1) > 'x'",
      "SELECT SUM(i1) FILTER (WHERE i1 = 'x') AS y FROM wide",
      "SELECT 9223372036854775807 + 1 AS y FROM wide",
      "SELECT error('boom') AS y FROM wide",
      "SELECT make_date(2024, 13, 1) AS y, '{'::JSON AS j FROM wide",
      "SELECT i1 FROM wide ORDER BY 'x'::INTEGER LIMIT (SELECT 'x'::INTEGER)",
      "SELECT w.s, x.y FROM wide w, (SELECT 'x'::INTEGER AS y) x QUALIFY row_number() OVER (ORDER BY w.s) > 'x'",
    ]) {
      const probe = `SELECT * FROM (\n${body}\n) AS __sv_probe LIMIT 0`;
      expect(await describeOneStatement(conn, probe), body).to.deep.equal(await ran(probe, 0));
      await conn.runAndReadAll(body).then(
        () => expect.fail(`${body} should fail when run`),
        () => undefined,
      );
    }
  });

  describe("through the engine", () => {
    let engine: Engine;
    before(async () => {
      engine = engineFromSettings(cSettings({ database: ":memory:", poolSize: 1 }));
      await using c = await engine.connect();
      await c.run(
        "CREATE TABLE t AS SELECT range AS k, range::INTEGER AS v, (range / 4)::DECIMAL(9,2) AS d FROM range(10)",
      );
      await c.run(
        "CREATE SEMANTIC VIEW sv AS TABLES (t) DIMENSIONS (t.k AS k, t.bad AS t.v + 'x') METRICS (t.total AS SUM(v), t.dsum AS SUM(d))",
      );
      await c.commit();
    });
    after(() => engine.dispose());

    it("types the output as a run of the probe would (SUM(INTEGER) as BIGINT)", async () => {
      await using c = await engine.connect();
      const rows = await c.all(
        "SELECT * FROM semantic_view('sv', dimensions := ['k'], metrics := ['total', 'dsum'], where_clause := 'k >= 8') ORDER BY k",
      );
      expect(rows.map((r) => ({ ...r }))).to.deep.equal([
        { k: 8n, total: 8n, dsum: rows[0]!["dsum"] },
        { k: 9n, total: 9n, dsum: rows[1]!["dsum"] },
      ]);
      expect(String(rows[0]!["dsum"])).to.equal("2.00");
    });

    it("keeps every error text: a member that does not bind is wrapped, a value that fails when computed is not", async () => {
      await using c = await engine.connect();
      const failure = (sql: string) =>
        c.all(sql).then(
          () => expect.fail(`${sql} should fail`),
          (e: unknown) => (e as Error).message,
        );
      expect(await failure("SELECT * FROM semantic_view('sv', dimensions := ['bad'])")).to.match(
        /^semantic_view: type inference failed for query on semantic view 'sv': Binder Error: Could not choose a best candidate function/,
      );
      // As in the extension: the LIMIT 0 probe computes no value, so only the real run fails, unwrapped.
      for (const where of ["k > ''x''", "v = ''x''"]) {
        const message = await failure(
          `SELECT * FROM semantic_view('sv', dimensions := ['k'], metrics := ['total'], where_clause := '${where}')`,
        );
        expect(message, where).to.match(/^Conversion Error: Could not convert string 'x' to INT(64|32)/);
      }
    });

    // Last: it drops the table.
    it("reports a probe that cannot be prepared with the same error as before", async () => {
      await using c = await engine.connect();
      await c.run("DROP TABLE t");
      const error = await c.all("SELECT * FROM semantic_view('sv', dimensions := ['k'])").then(
        () => expect.fail("expected an error"),
        (e: unknown) => e as Error,
      );
      expect(error.message).to.contain("semantic_view: type inference failed for query on semantic view 'sv'");
      expect(error.message).to.contain("Table with name t does not exist");
    });
  });

  it("reads the probe's columns from describe and runs it only where describe cannot answer", async () => {
    await conn.run("CREATE TABLE IF NOT EXISTS nums AS SELECT i % 3 AS k, i::INTEGER AS v FROM range(10) r(i)");
    const view = defineView({
      name: "n",
      tables: [{ alias: "t", table: "nums" }],
      dimensions: { "t.k": "t.k" },
      metrics: { "t.total": "SUM(t.v)" },
    });
    const ranSql: string[] = [];
    const session = (describes: boolean): SqlSession => ({
      query: async (sql, parameters = []) => {
        ranSql.push(sql);
        const reader = await conn.runAndReadAll(sql, parameters.length > 0 ? (parameters as never) : undefined);
        const types = reader.columnTypes();
        return { columns: reader.columnNames().map((name, i) => ({ name, type: String(types[i]) })), rows: [] };
      },
      describe: async (sql) => (describes ? describeOneStatement(conn, sql) : undefined),
    });
    const sql = "SELECT * FROM semantic_view('n', dimensions := ['k'], metrics := ['total'])";
    for (const describes of [true, false]) {
      clearSemanticQueryCache();
      ranSql.length = 0;
      const rewritten = (await rewriteSemanticViewCalls(session(describes), sql, fixedCatalog(view)))!;
      expect(ranSql.filter((s) => s.includes("__sv_probe")).length, `describes: ${describes}`).to.equal(
        describes ? 0 : 1,
      );
      expect(rewritten, `describes: ${describes}`).to.contain('::BIGINT AS "total"'); // SUM(INTEGER) probed as HUGEINT
    }
  });
});
