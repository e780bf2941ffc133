/**
 * The DuckDB connection reuses the prepared statements of its autocommit reads. A reused statement
 * must never answer stale: not after the table changed on another connection, not after the search
 * path or a setting changed (on this connection or, globally, on another), not with an earlier
 * binding of its parameters, and not after it failed.
 */
import { expect } from "chai";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Engine, PooledConnection } from "lib";
import { StatementCache } from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { plainEngine } from "../support/engines.js";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

async function streamed(conn: PooledConnection, sql: string): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const chunk of await conn.stream(sql)) rows.push(...chunk);
  return rows;
}

describe("engine: DuckDB prepared statements reused by autocommit reads", () => {
  const tmp = useTempDir();

  describe("StatementCache", () => {
    let instance: DuckDBInstance;
    beforeEach(async () => {
      instance = await DuckDBInstance.create(":memory:");
    });
    afterEach(() => instance.closeSync());

    it("prepares a text once, binds fresh values each time, keeps the most recently used within capacity", async () => {
      const connection = await instance.connect();
      try {
        const cache = new StatementCache(connection, { maxEntries: 2 });
        const first = await cache.bound("SELECT $1::INTEGER AS v", [1]);
        expect(first).to.not.equal(undefined);
        expect((await first!.runAndReadAll()).getRows()).to.deep.equal([[1]]);
        const again = await cache.bound("SELECT $1::INTEGER AS v", [2]);
        expect(again).to.equal(first);
        expect((await again!.runAndReadAll()).getRows()).to.deep.equal([[2]]);
        await cache.bound("SELECT 2 AS b", undefined);
        await cache.bound("SELECT $1::INTEGER AS v", [3]); // most recently used again
        await cache.bound("SELECT 3 AS c", undefined); // evicts "SELECT 2"
        expect(cache.size).to.equal(2);
        expect(await cache.bound("SELECT $1::INTEGER AS v", [4])).to.equal(first);
      } finally {
        connection.closeSync();
      }
    });

    it("refuses values that do not match the parameters, and what DuckDB cannot prepare", async () => {
      const connection = await instance.connect();
      try {
        const cache = new StatementCache(connection);
        expect(await cache.bound("SELECT $1::INTEGER AS v", [1])).to.not.equal(undefined);
        expect(await cache.bound("SELECT $1::INTEGER AS v", undefined)).to.equal(undefined);
        expect(await cache.bound("SELECT $1::INTEGER AS v", [1, 2])).to.equal(undefined);
        expect(await cache.bound("SELECT * FROM no_such_table", undefined)).to.equal(undefined);
        expect(cache.size).to.equal(1);
      } finally {
        connection.closeSync();
      }
    });
  });

  describe("through an engine", () => {
    let engine: Engine;
    beforeEach(async () => {
      engine = plainEngine({ database: tmp.file(), poolSize: 2, maxOverflow: 0 });
      await using setup = await engine.connect();
      await setup.run("CREATE TABLE t AS SELECT 1 AS x");
      await setup.commit();
    });
    afterEach(() => engine.dispose());

    it("a table replaced on another connection is read in its new shape, streamed or not", async () => {
      await using conn = await engine.connect();
      expect(await conn.all("SELECT * FROM t")).to.deep.equal([{ x: 1 }]);
      expect(await streamed(conn, "SELECT * FROM t")).to.deep.equal([[1]]);
      {
        await using other = await engine.connect();
        await other.run("CREATE OR REPLACE TABLE t AS SELECT 'a' AS y, 2 AS z");
        await other.commit();
      }
      expect(await conn.all("SELECT * FROM t")).to.deep.equal([{ y: "a", z: 2 }]);
      expect(await streamed(conn, "SELECT * FROM t")).to.deep.equal([["a", 2]]);
    });

    it("results of one cached statement share their column plan until DuckDB answers other columns", async () => {
      await using conn = await engine.connect();
      const read = async (sql: string) => {
        const stream = await conn.stream(sql);
        const rows: unknown[][] = [];
        for await (const chunk of stream) rows.push(...chunk);
        return { columns: stream.columns, rows };
      };
      const replace = async (select: string) => {
        await using other = await engine.connect();
        await other.run(`CREATE OR REPLACE TABLE t AS ${select}`);
        await other.commit();
      };
      const sql = "SELECT * FROM t";
      await read(sql); // prepared and kept
      const second = await read(sql);
      const third = await read(sql);
      expect(third.columns).to.equal(second.columns); // shared: same names and type ids
      expect(third.rows).to.deep.equal([[1]]);
      // Same name, another type id; then another name; then types whose id does not say everything.
      const shapes: [string, string, string, unknown][] = [
        ["SELECT 7::BIGINT AS x", "x", "BIGINT", 7n],
        ["SELECT 'a' AS x", "x", "VARCHAR", "a"],
        ["SELECT 'a' AS y", "y", "VARCHAR", "a"],
        ["SELECT 1.5::DECIMAL(9,2) AS y", "y", "DECIMAL(9,2)", "1.50"],
        ["SELECT 2.5::DECIMAL(9,1) AS y", "y", "DECIMAL(9,1)", "2.5"],
        ["SELECT [1, 2] AS y", "y", "INTEGER[]", [1, 2]],
        ["SELECT ['a'] AS y", "y", "VARCHAR[]", ["a"]],
      ];
      for (const [select, name, type, value] of shapes) {
        await replace(select);
        const { columns, rows } = await read(sql);
        expect(
          columns.map((c) => [c.name, c.type]),
          select,
        ).to.deep.equal([[name, type]]);
        const got = rows[0]![0];
        expect(typeof value === "string" && typeof got === "object" ? String(got) : got, select).to.deep.equal(value);
      }
    });

    it("a kept column plan is not reused for a column that became JSON (same name, same type id, an alias)", async () => {
      await using conn = await engine.connect();
      const columnsOf = async (sql: string) => {
        const stream = await conn.stream(sql);
        for await (const chunk of stream) void chunk;
        return stream.columns;
      };
      const replace = async (select: string) => {
        await using other = await engine.connect();
        await other.run(`CREATE OR REPLACE TABLE t AS ${select}`);
        await other.commit();
      };
      const sql = "SELECT * FROM t";
      await replace("SELECT 'a' AS x");
      await columnsOf(sql); // prepared and kept
      const kept = await columnsOf(sql);
      expect(await columnsOf(sql)).to.equal(kept); // a plain VARCHAR plan is shared
      // DuckDB re-binds the statement: the column is JSON now, VARCHAR with an alias, the same type id.
      await replace(`SELECT '{"k": 1}'::JSON AS x`);
      const json = await columnsOf(sql);
      expect(json, "the VARCHAR plan was reused for a JSON column").to.not.equal(kept);
      expect(await columnsOf(sql), "a plan with an alias is never shared").to.not.equal(json);
      expect(await conn.all(sql)).to.deep.equal([{ x: '{"k": 1}' }]);
      // A commit that changed nothing of its columns: the kept plan is checked once, then shared again.
      await replace("SELECT 'b' AS x");
      const plain = await columnsOf(sql);
      await replace("SELECT 'c' AS x");
      expect(await columnsOf(sql)).to.equal(plain);
      expect(await columnsOf(sql)).to.equal(plain);
    });

    it("rows written and committed elsewhere are seen by the next read of the same text", async () => {
      await using conn = await engine.connect();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
      {
        await using other = await engine.connect();
        await other.run("INSERT INTO t VALUES (2), (3)");
        await other.commit();
      }
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 3n }]);
    });

    it("a setting changed on the same connection is seen by the next read of the same text", async () => {
      await using conn = await engine.connect();
      await conn.run("SET TimeZone = 'UTC'");
      await conn.commit(); // reads outside a transaction are the ones that reuse statements
      // The cast binds the session's time zone into the plan.
      const sql = "SELECT TIMESTAMPTZ '2024-01-01 12:00:00+00'::VARCHAR AS v";
      expect(await conn.all(sql)).to.deep.equal([{ v: "2024-01-01 12:00:00+00" }]);
      await conn.run("SET TimeZone = 'Asia/Tokyo'");
      await conn.commit();
      expect(await conn.all(sql)).to.deep.equal([{ v: "2024-01-01 21:00:00+09" }]);
      expect(await streamed(conn, sql)).to.deep.equal([["2024-01-01 21:00:00+09"]]);
    });

    it("a global setting changed on another connection is seen by the next read of the same text", async () => {
      await using conn = await engine.connect();
      const sql = "SELECT current_setting('default_null_order') AS o";
      const [before] = await conn.all(sql);
      const changed = String(before!["o"]).toLowerCase() === "nulls_first" ? "nulls_last" : "nulls_first";
      {
        await using other = await engine.connect();
        await other.run(`SET GLOBAL default_null_order = '${changed}'`);
        await other.commit();
      }
      const [after] = await conn.all(sql);
      expect(String(after!["o"]).toLowerCase()).to.equal(changed);
    });

    it("after USE, the same text reads the table of the schema now on the search path", async () => {
      await using conn = await engine.connect();
      await conn.run("CREATE SCHEMA s2");
      await conn.run("CREATE TABLE s2.t AS SELECT 'other' AS w");
      await conn.commit();
      expect(await conn.all("SELECT * FROM t")).to.deep.equal([{ x: 1 }]);
      await conn.run("USE s2");
      await conn.commit();
      expect(await conn.all("SELECT * FROM t")).to.deep.equal([{ w: "other" }]);
    });

    it("parameters are bound afresh on every run; a missing one fails instead of reusing the last", async () => {
      await using conn = await engine.connect();
      await conn.run("INSERT INTO t VALUES (2)");
      await conn.commit();
      const sql = "SELECT x FROM t WHERE x = $1";
      expect(await conn.all(sql, [1])).to.deep.equal([{ x: 1 }]);
      expect(await conn.all(sql, [2])).to.deep.equal([{ x: 2 }]);
      expect(await failureOf(conn.all(sql))).to.have.property("name", "ProgrammingError");
      expect(await conn.all(sql, [1])).to.deep.equal([{ x: 1 }]);
    });

    it("a reused statement whose table is gone fails; once the table is back the same text works", async () => {
      await using conn = await engine.connect();
      expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 1 }]);
      {
        await using other = await engine.connect();
        await other.run("DROP TABLE t");
        await other.commit();
      }
      expect(await failureOf(conn.all("SELECT x FROM t"))).to.have.property("name", "ProgrammingError");
      await conn.run("CREATE TABLE t AS SELECT 5 AS x");
      await conn.commit();
      expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 5 }]);
    });

    it("inside a transaction a read sees the caller's own uncommitted writes", async () => {
      await using conn = await engine.connect();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
      await conn.run("INSERT INTO t VALUES (9)");
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 2n }]);
      await conn.rollback();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
    });

    it("a statement DuckDB cannot prepare (PIVOT) still runs", async () => {
      await using conn = await engine.connect();
      const pivot = "PIVOT (SELECT 'a' AS k, 1 AS v) ON k USING sum(v)";
      expect(await conn.all(pivot)).to.deep.equal([{ a: 1n }]);
      expect(await conn.all(pivot)).to.deep.equal([{ a: 1n }]);
    });
  });
});
