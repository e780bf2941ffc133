/**
 * The DuckDB connection's fast paths keep their answers exact: reads outside a transaction run in
 * autocommit (no BEGIN/ROLLBACK), a cut-off stream is detected without a probe statement, and the
 * semantic-view definitions cached per database are never stale after a commit anywhere in the
 * process (same engine, another engine on the same file, raw SQL on the catalog table).
 */
import { expect } from "chai";
import { DuckDBInstance } from "@duckdb/node-api";
import { OperationalError } from "lib";
import type { Engine, PooledConnection } from "lib";
import type { DuckDBDatabaseConnection } from "../../runtime/dialects/duckdb/duckdb-connection.js";
import { ArrowTableBuilder } from "../../runtime/cursor/arrow-table.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import type { ColumnInfo } from "../../runtime/driver/query-result.js";
import { streamOfResult } from "../../runtime/dialects/duckdb/duckdb-results.js";
import { normalizingConverter } from "../../runtime/dialects/duckdb/duckdb-values.js";
import { isReadOnlyStatement } from "../../runtime/dialects/duckdb/duckdb-statements.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import {
  PooledConnectionImpl as PooledConnectionImplClass,
  type PooledConnectionImpl,
} from "../../runtime/engine/pooled-connection-impl.js";
import { driverConnectionOf } from "../../runtime/observability/instrumented-driver.js";
import { DefinitionCache } from "../../runtime/semantic/definition-cache.js";
import { loadArrow } from "../../runtime/cursor/load-arrow.js";
import { cSettings, plainEngine, useEngineWithTable } from "../support/engines.js";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

/** Whether our transaction is open on the pooled connection's physical DuckDB connection. */
function inTransaction(conn: PooledConnection): boolean {
  return (driverConnectionOf((conn as PooledConnectionImpl)._connection) as DuckDBDatabaseConnection).inTransaction;
}

const viewDdl = (metric: string) =>
  `CREATE OR REPLACE SEMANTIC VIEW sv AS TABLES (s) DIMENSIONS (s.k AS k) METRICS (s.total AS ${metric})`;
const TOTAL = "SELECT * FROM semantic_view('sv', metrics := ['total'])";

describe("engine: DuckDB fast paths", () => {
  const tmp = useTempDir();

  describe("reads outside a transaction run in autocommit", () => {
    const db = useEngineWithTable(tmp);

    it("a read opens no transaction; a write opens one that only commit() publishes", async () => {
      await using conn = await db.engine.connect();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
      expect(inTransaction(conn)).to.equal(false);
      const stream = await conn.stream("WITH r AS (SELECT 1 AS one) FROM r");
      for await (const chunk of stream) expect(chunk).to.deep.equal([[1]]);
      expect(inTransaction(conn)).to.equal(false);
      await conn.run("INSERT INTO t VALUES (1)");
      expect(inTransaction(conn)).to.equal(true);
      await using other = await db.engine.connect();
      expect(await other.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
      await conn.commit();
      expect(await other.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
    });

    it("inside a transaction every read sees the caller's own writes, streamed or not", async () => {
      await using conn = await db.engine.connect();
      await conn.run("BEGIN");
      await conn.run("INSERT INTO t VALUES (7)");
      expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 7 }]);
      const stream = await conn.stream("SELECT x FROM t");
      const rows: unknown[][] = [];
      for await (const chunk of stream) rows.push(...chunk);
      expect(rows).to.deep.equal([[7]]);
      await conn.rollback();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
    });

    it("a failed read leaves the connection healthy and outside any transaction", async () => {
      await using conn = await db.engine.connect();
      expect(await failureOf(conn.all("SELECT * FROM no_such_table"))).to.have.property("name", "ProgrammingError");
      expect(inTransaction(conn)).to.equal(false);
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });

    it("a stream cut off by an error inside a transaction still fails as incomplete", async () => {
      await using conn = await db.engine.connect();
      await conn.run("INSERT INTO t VALUES (1)");
      const stream = await conn.stream(
        "SELECT CASE WHEN i < 3000000 THEN i ELSE error('boom') END AS v FROM range(4000000) t(i)",
      );
      const failure = await failureOf(
        (async () => {
          for await (const _ of stream) {
            // read on
          }
        })(),
      );
      expect(failure).to.be.instanceOf(OperationalError);
      expect(failure.message).to.match(/incomplete/);
      await conn.rollback();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
    });

    it("a failed chunk read is reported to the pool once, before the read rejects (DuckDB streams report it themselves)", async () => {
      await using conn = await db.engine.connect();
      const events: unknown[] = [];
      const owner = {
        release: () => Promise.resolve(),
        discard: () => Promise.resolve(),
        noteError: (error: unknown) => events.push(error),
      };
      const observed = new PooledConnectionImplClass((conn as PooledConnectionImpl)._connection, owner);
      // Cut off by an error after some chunks: the end is detected as incomplete.
      for (const sql of ["SELECT CASE WHEN i < 200000 THEN i ELSE error('boom') END AS v FROM range(300000) t(i)"]) {
        events.length = 0;
        const stream = await observed.stream(sql);
        const failure = await failureOf(
          (async () => {
            for await (const _ of stream) {
              // read on
            }
          })(),
        );
        expect(failure.message).to.match(/incomplete/);
        events.push("rejected");
        expect(events, sql).to.deep.equal([failure, "rejected"]);
      }
      await observed.release();
      // A chunk fetch that rejects (a result without a native handle is read through node-api's own method).
      const failing = new Error("fetch failed");
      const result = { columnTypes: () => [], columnName: () => "", fetchChunk: () => Promise.reject(failing) };
      const stream = streamOfResult(result as never, { operationStarted() {}, operationSettled() {}, interrupt() {} });
      events.length = 0;
      stream.observeReadFailures!(owner);
      const failure = await failureOf(stream[Symbol.asyncIterator]().next());
      events.push("rejected");
      expect(events).to.deep.equal([failure, "rejected"]);
      expect(failure.message).to.contain("fetch failed");
    });

    it("the read-only test is conservative", () => {
      for (const sql of [
        "SELECT 1",
        "  -- c\n from t",
        "WITH a AS (SELECT 1) SELECT * FROM a",
        "(SELECT 1)",
        "DESCRIBE t",
        "SELECT created_at FROM t",
      ]) {
        expect(isReadOnlyStatement(sql), sql).to.equal(true);
      }
      for (const sql of [
        "INSERT INTO t VALUES (1)",
        "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a",
        "SELECT nextval('seq')",
        "SELECT 1; DELETE FROM t",
        "EXPLAIN ANALYZE DELETE FROM t",
        "SELECT * FROM force_checkpoint()",
        "SET threads = 1",
        "CALL pragma_version()",
      ]) {
        expect(isReadOnlyStatement(sql), sql).to.equal(false);
      }
    });
  });

  it("the pool hands out the most recently returned connection first (a warm one)", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 2, maxOverflow: 0 });
    const physical = (conn: PooledConnection) => (conn as PooledConnectionImpl)._connection;
    const a = await engine.connect();
    const b = await engine.connect();
    const [first, second] = [physical(a), physical(b)];
    await a.release();
    await b.release();
    for (let i = 0; i < 3; i++) {
      await using conn = await engine.connect();
      expect(physical(conn)).to.equal(second);
    }
    expect(first).to.not.equal(second);
  });

  it("streamed and whole results (per-column plan) equal the driver's per-value conversion, nulls and every chunk included", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const sql = `SELECT
      CASE WHEN i % 7 = 0 THEN NULL ELSE i END AS n,
      (i % 100)::TINYINT AS ti, (i * 3)::SMALLINT AS si, (i - 5000)::BIGINT * 1000000007 AS bi,
      (i::HUGEINT * 17014118346046923173168730371588) AS hi, (i::UBIGINT * 1844674407370955) AS ub,
      (i::UHUGEINT * 34028236692093846346337460743176) AS uh,
      (i % 999)::DECIMAL(4,1) / 10 AS d4, (i * 1.25)::DECIMAL(9,2) AS d9, (-i * 1.125)::DECIMAL(18,3) AS d18,
      (i::DECIMAL(38,10) * 1234567890123.0123456789) AS d38, (i * 7)::DECIMAL(10,0) AS d0,
      (i / 8)::FLOAT AS f, i / 3 AS dbl,
      CASE WHEN i % 5 = 0 THEN NULL WHEN i % 2 = 0 THEN 'short' ELSE 'a string longer than twelve bytes ' || i END AS s,
      i % 3 = 0 AS b, DATE '1969-12-25' + (i % 20000)::INTEGER AS dt,
      TIMESTAMP '1960-01-01 00:00:00.123456' + to_seconds(i * 1000) AS ts,
      TIMESTAMPTZ '2024-03-01 12:00:00+00' + to_milliseconds(i) AS tz,
      [i, i + 1] AS l, {'a': i} AS st
      FROM range(5000) t(i)`;
    // The oracle: node-api's own reader, every value through normalizingConverter one by one.
    const instance = await DuckDBInstance.create(":memory:");
    const raw = await instance.connect();
    const reader = await raw.runAndReadAll(sql);
    const expected = reader.convertRows(normalizingConverter);
    const expectedColumns = reader.columnTypes().map((type, i) => [reader.columnName(i), type.toString()]);
    raw.closeSync();
    instance.closeSync();
    const whole = await conn.execute(sql);
    expect(whole.rows).to.deep.equal(expected);
    expect(whole.columns.map((c) => [c.name, c.type])).to.deep.equal(expectedColumns);
    const streamed: unknown[][] = [];
    for await (const chunk of await conn.stream(sql)) streamed.push(...chunk);
    expect(streamed).to.have.length(5000);
    expect(streamed).to.deep.equal(expected);
    const first = streamed[1]!;
    expect(first[3]).to.be.a("bigint");
    expect(String(first[8])).to.equal("1.25");
    expect((first[16] as Date).toISOString()).to.equal("1969-12-26T00:00:00.000Z");
  });

  it("fetchArrow() fed column by column builds the same table as from rows", async () => {
    await using engine = plainEngine();
    const sql = `SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE i::INTEGER END AS n, i::BIGINT * 3 AS b,
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 1.25)::DECIMAL(12,2) END AS d, i / 3 AS f,
      CASE WHEN i % 3 = 0 THEN NULL ELSE 'row ' || i END AS s, i % 2 = 0 AS ok, DATE '1969-12-25' + i::INTEGER AS dt
      FROM range(5000) t(i)`;
    let rows: readonly unknown[][];
    let columns: readonly ColumnInfo[];
    {
      await using conn = await engine.connect();
      ({ rows, columns } = await conn.execute(sql));
    }
    await loadArrow(); // the builder is used directly here, before any fetchArrow() loaded Arrow
    const fromRows = new ArrowTableBuilder(columns);
    fromRows.appendChunk(rows.slice(0, 1234));
    fromRows.appendChunk(rows.slice(1234));
    await using cursor = await openCursor(await engine.connect(), { sql, parameters: [] });
    const table = await cursor.fetchArrow();
    const expected = fromRows.finish();
    expect(table.numRows).to.equal(5000);
    expect(table.schema.fields.map((f) => String(f.type))).to.deep.equal(
      expected.schema.fields.map((f) => String(f.type)),
    );
    for (const field of expected.schema.fields) {
      expect([...table.getChild(field.name)!], field.name).to.deep.equal([...expected.getChild(field.name)!]);
    }
  });

  describe("semantic-view definitions cached per database", () => {
    const engines: Engine[] = [];
    const semanticEngine = (input: Parameters<typeof cSettings>[0] = {}) => {
      const engine = engineFromSettings(
        cSettings({ database: tmp.file(), semanticViews: "builtin", poolSize: 2, maxOverflow: 0, ...input }),
      );
      engines.push(engine);
      return engine;
    };
    afterEach(async () => {
      for (const engine of engines.splice(0)) await engine.dispose();
    });

    async function seed(engine: Engine): Promise<void> {
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE s (k VARCHAR, v INTEGER); INSERT INTO s VALUES ('a', 1), ('b', 2)");
      await conn.run(viewDdl("SUM(v)"));
      await conn.commit();
    }

    it("a view redefined on another connection is seen by the next query", async () => {
      const engine = semanticEngine();
      await seed(engine);
      await using reader = await engine.connect();
      await using writer = await engine.connect();
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 3n }]);
      await writer.run(viewDdl("SUM(v) * 10"));
      // Uncommitted: the writer sees its own definition, the reader the committed one.
      expect(await writer.all(TOTAL)).to.deep.equal([{ total: 30n }]);
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 3n }]);
      await writer.commit();
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 30n }]);
      await writer.run("DROP SEMANTIC VIEW sv");
      await writer.commit();
      expect((await failureOf(reader.all(TOTAL))).message).to.match(/Semantic view 'sv' not found/);
    });

    it("a rolled-back redefinition is forgotten by the connection that made it", async () => {
      const engine = semanticEngine();
      await seed(engine);
      await using conn = await engine.connect();
      expect(await conn.all(TOTAL)).to.deep.equal([{ total: 3n }]);
      await conn.run(viewDdl("SUM(v) + 100"));
      expect(await conn.all(TOTAL)).to.deep.equal([{ total: 103n }]);
      await conn.rollback();
      expect(await conn.all(TOTAL)).to.deep.equal([{ total: 3n }]);
    });

    it("another engine on the same file, or raw SQL on the catalog table, invalidates it", async () => {
      const engine = semanticEngine();
      await seed(engine);
      await using reader = await engine.connect();
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 3n }]);
      {
        await using elsewhere = await semanticEngine().connect();
        await elsewhere.run(viewDdl("SUM(v) * 100"));
        await elsewhere.commit();
      }
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 300n }]);
      {
        // No semantic layer at all on this engine: only its commit says the catalog changed.
        const plain = plainEngine({ database: tmp.file(), poolSize: 1 });
        engines.push(plain);
        await using raw = await plain.connect();
        await raw.run(
          "UPDATE semantic_layer._definitions SET definition = replace(definition, 'SUM(v) * 100', 'SUM(v) * 1000') WHERE name = 'sv'",
        );
        await raw.commit();
      }
      expect(await reader.all(TOTAL)).to.deep.equal([{ total: 3000n }]);
    });

    it("SET schema re-resolves an unqualified name", async () => {
      const engine = semanticEngine();
      await seed(engine);
      await using conn = await engine.connect();
      await conn.run(
        "CREATE SCHEMA other; CREATE SEMANTIC VIEW other.sv AS TABLES (s) DIMENSIONS (s.k AS k) METRICS (s.total AS COUNT(*) * 1000)",
      );
      await conn.commit();
      expect(await conn.all(TOTAL)).to.deep.equal([{ total: 3n }]);
      await conn.run("SET schema = 'other'");
      await conn.commit(); // out of the transaction SET opened: the cached path answers
      expect(await conn.all(TOTAL)).to.deep.equal([{ total: 2000n }]);
    });

    it("drops an entry read before a commit that finished after the read began", () => {
      const cache = new DefinitionCache();
      const readAt = cache.generation;
      cache.invalidate(); // a commit elsewhere, while the catalog was being read
      cache.set("db\u0000sv", [{ schema: "main", name: "sv", definition: undefined }], readAt);
      expect(cache.get("db\u0000sv")).to.equal(undefined);
      cache.set("db\u0000sv", [{ schema: "main", name: "sv", definition: undefined }], cache.generation);
      expect(cache.get("db\u0000sv")).to.have.length(1);
      cache.invalidate();
      expect(cache.get("db\u0000sv")).to.equal(undefined);
    });
  });
});
