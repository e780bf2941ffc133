import { expect } from "chai";
import {
  DataError,
  IntegrityError,
  InternalError,
  NotSupportedError,
  OperationalError,
  ProgrammingError,
  WarehouseError,
} from "lib";
import type { Engine, PooledConnection } from "lib";
import { DuckDBDriver } from "../../runtime/dialects/duckdb/duckdb-driver.js";
import { mapDuckDBError } from "../../runtime/dialects/duckdb/duckdb-errors.js";
import { splitSqlStatements, transactionControlOf } from "../../runtime/dialects/duckdb/duckdb-statements.js";
import type { SemanticLayer } from "../../runtime/semantic/semantic-layer.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { cSettings, plainEngine, useEngineWithTable } from "../support/engines.js";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

describe("engine: DuckDB connections", () => {
  const tmp = useTempDir();

  describe("autocommit off", () => {
    const db = useEngineWithTable(tmp);

    it("uncommitted rows are invisible to another connection until commit()", async () => {
      await using writer = await db.engine.connect();
      await using reader = await db.engine.connect();
      await writer.run("INSERT INTO t VALUES (1), (2)");
      expect(await writer.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 2n }]);
      expect(await reader.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
      await writer.commit();
      await reader.rollback(); // end the reader's snapshot
      expect(await reader.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 2n }]);
    });

    it("the SQL statement COMMIT commits, and works twice in a row", async () => {
      await using writer = await db.engine.connect();
      await using reader = await db.engine.connect();
      await writer.run("INSERT INTO t VALUES (1)");
      await writer.run("COMMIT");
      await writer.run("COMMIT");
      await writer.run("commit; COMMIT;");
      expect(await reader.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
      // The next statement runs in a fresh transaction again.
      await writer.run("INSERT INTO t VALUES (2)");
      await reader.rollback();
      expect(await reader.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
    });

    it("ROLLBACK (SQL or method) discards, BEGIN joins the open transaction, mixed scripts keep order", async () => {
      await using conn = await db.engine.connect();
      await conn.run("INSERT INTO t VALUES (1); ROLLBACK");
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
      await conn.run("BEGIN; INSERT INTO t VALUES (5); COMMIT; INSERT INTO t VALUES (6)");
      await conn.rollback();
      await conn.rollback(); // nothing open: no error
      expect(await conn.all("SELECT x FROM t ORDER BY x")).to.deep.equal([{ x: 5 }]);
      await conn.run("START TRANSACTION; INSERT INTO t VALUES (7); END");
      expect(await conn.all("SELECT x FROM t ORDER BY x")).to.deep.equal([{ x: 5 }, { x: 7 }]);
    });

    it("a failed commit leaves the connection usable", async () => {
      await using a = await db.engine.connect();
      await using b = await db.engine.connect();
      await a.run("CREATE TABLE k (id INTEGER PRIMARY KEY)");
      await a.commit();
      await a.run("INSERT INTO k VALUES (1)");
      await b.run("INSERT INTO k VALUES (1)");
      await a.commit();
      const error = await failureOf(b.commit());
      expect(error).to.be.instanceOf(WarehouseError);
      expect(await b.all("SELECT count(*) AS n FROM k")).to.deep.equal([{ n: 1n }]);
    });

    it("stream() of a script with transaction control runs every statement, then streams the last", async () => {
      await using conn = await db.engine.connect();
      await using reader = await db.engine.connect();
      const rowsOf = async (sql: string, parameters?: unknown[]) => {
        const rows: unknown[][] = [];
        for await (const chunk of await conn.stream(sql, parameters)) rows.push(...chunk);
        return rows;
      };
      expect(await rowsOf("BEGIN; INSERT INTO t VALUES (5); COMMIT")).to.deep.equal([]);
      expect(await reader.all("SELECT x FROM t"), "committed by the script").to.deep.equal([{ x: 5 }]);
      expect(await rowsOf("INSERT INTO t VALUES (6); ROLLBACK; SELECT x FROM t ORDER BY x")).to.deep.equal([[5]]);
      expect(await rowsOf("INSERT INTO t VALUES (7); COMMIT; SELECT x FROM t ORDER BY x")).to.deep.equal([[5], [7]]);
      await reader.rollback(); // end the reader's snapshot
      expect(await reader.all("SELECT x FROM t ORDER BY x")).to.deep.equal([{ x: 5 }, { x: 7 }]);
      expect(await rowsOf("SELECT CASE WHEN x > 5 THEN 'big' END AS size FROM t ORDER BY x")).to.deep.equal([
        [null],
        ["big"],
      ]);
      const error = await failureOf(rowsOf("COMMIT; SELECT ?", [1]));
      expect(error).to.be.instanceOf(ProgrammingError);
      expect(error.message).to.match(/single statement \(got 2\)/);
    });

    it("multi-statement SQL returns the last statement's rows", async () => {
      await using conn = await db.engine.connect();
      const rows = await conn.all("INSERT INTO t VALUES (3); SELECT x FROM t");
      expect(rows).to.deep.equal([{ x: 3 }]);
      const error = await failureOf(conn.all("SELECT ?; COMMIT; SELECT ?", [1, 2]));
      expect(error).to.be.instanceOf(ProgrammingError);
    });
  });

  it(":memory: connections are separate databases", async () => {
    // The engine never opens a second :memory: connection, so ask the driver for two directly.
    const driver = new DuckDBDriver(cSettings({ database: ":memory:" }), { semanticLayer: null });
    const a = await driver.openConnection();
    const b = await driver.openConnection();
    try {
      await a.execute("CREATE TABLE only_in_a AS SELECT 1 AS x");
      await a.commit();
      expect((await a.execute("SELECT x FROM only_in_a")).rows).to.deep.equal([[1]]);
      const error = await failureOf(b.execute("SELECT x FROM only_in_a"));
      expect(error).to.be.instanceOf(ProgrammingError);
      expect(error.message).to.match(/Catalog Error/);
    } finally {
      await a.close();
      await b.close();
      await driver.destroy();
    }
  });

  it("read_only opens the file read-only", async () => {
    const path = tmp.file();
    {
      await using writer = plainEngine({ database: path, poolSize: 1 });
      await using conn = await writer.connect();
      await conn.run("CREATE TABLE t AS SELECT 42 AS x");
      await conn.commit();
    }
    await using engine = plainEngine({ database: path, poolSize: 2, readOnly: true });
    await using conn = await engine.connect();
    expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 42 }]);
    const error = await failureOf(conn.run("INSERT INTO t VALUES (1)"));
    expect(error).to.be.instanceOf(WarehouseError);
    expect(error.message).to.match(/read-only/i);
  });

  it("never downloads extensions (autoinstall_known_extensions = false)", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    expect(await conn.all("SELECT current_setting('autoinstall_known_extensions') AS v")).to.deep.equal([{ v: false }]);
  });

  describe("streaming", () => {
    it("yields row-array chunks lazily and stops on close()", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const stream = await conn.stream("SELECT range AS n FROM range(100000)");
      expect(stream.columns).to.deep.equal([{ name: "n", type: "BIGINT", kind: "bigint" }]);
      let rows = 0;
      let chunks = 0;
      for await (const chunk of stream) {
        chunks++;
        rows += chunk.length;
        expect(chunk[0]![0]).to.be.a("bigint");
        if (chunks === 3) break;
      }
      expect(chunks).to.equal(3);
      expect(rows).to.be.lessThan(100000);
      await stream.close();
      await stream.close();
      // The connection is usable afterwards.
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });

    it("streams statements without a row result as DuckDB answers them (it materializes those)", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const read = async (sql: string) => {
        const stream = await conn.stream(sql);
        const rows: unknown[][] = [];
        for await (const chunk of stream) rows.push(...chunk);
        return { columns: stream.columns.map((c) => c.name), rows };
      };
      expect(await read("SET threads = 2")).to.deep.equal({ columns: ["Success"], rows: [] });
      expect(await read("CREATE TABLE streamed (x INTEGER)")).to.deep.equal({ columns: ["Count"], rows: [] });
      expect(await read("INSERT INTO streamed VALUES (1), (2)")).to.deep.equal({ columns: ["Count"], rows: [[2n]] });
      expect(await conn.all("SELECT sum(x) AS s FROM streamed")).to.deep.equal([{ s: 3n }]);
    });

    it("reads a whole result in chunks", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const stream = await conn.stream("SELECT range AS n, range::DECIMAL(10,2) / 4 AS q FROM range(5000)");
      let total = 0n;
      let count = 0;
      for await (const chunk of stream) {
        for (const row of chunk) {
          total += row[0] as bigint;
          count++;
        }
      }
      expect(count).to.equal(5000);
      expect(total).to.equal((4999n * 5000n) / 2n);
    });

    it("a statement that fails mid-stream rejects instead of ending the result early", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      // DuckDB evaluates error() only once the scan reaches row 3,000,000: well after the first chunks.
      const stream = await conn.stream(
        "SELECT CASE WHEN i < 3000000 THEN i ELSE error('boom') END AS v FROM range(4000000) t(i)",
      );
      let count = 0;
      const failure = await failureOf(
        (async () => {
          for await (const chunk of stream) count += chunk.length;
        })(),
      );
      expect(failure).to.be.instanceOf(OperationalError);
      expect(failure.message).to.match(/incomplete/);
      expect(count).to.be.greaterThan(0).and.lessThan(4_000_000);
      await conn.rollback();
      expect(await conn.all("SELECT 2 AS two")).to.deep.equal([{ two: 2 }]);
    });
  });

  it("an interrupt that lands before the statement has started is not lost", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    // Interrupt synchronously: DuckDB has not begun the statement (not even BEGIN) yet, and
    // would forget a bare interrupt; without the guard this query would run for hours.
    const running = conn.all("SELECT count(*) FROM range(10000000000) a, range(10) b");
    conn.interrupt();
    const error = await failureOf(running);
    expect(error).to.be.instanceOf(OperationalError);
    expect(error.message).to.match(/INTERRUPT/);
    await conn.rollback();
    expect(await conn.all("SELECT 3 AS three")).to.deep.equal([{ three: 3 }]);
  });

  it("interrupt() cancels the running statement; the connection stays usable", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const running = conn.all("SELECT count(*) FROM range(10000000000) a, range(10) b");
    setTimeout(() => conn.interrupt(), 100);
    const error = await failureOf(running);
    expect(error).to.be.instanceOf(OperationalError);
    expect(error.message).to.match(/INTERRUPT/);
    await conn.rollback();
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
  });

  describe("error mapping", () => {
    let engine: Engine;
    let conn: PooledConnection;
    beforeEach(async () => {
      engine = plainEngine();
      conn = await engine.connect();
      await conn.run("CREATE TABLE u (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    });
    afterEach(async () => {
      await conn.release();
      await engine.dispose();
    });

    const cases: ReadonlyArray<readonly [string, string, new (...args: never[]) => WarehouseError, RegExp]> = [
      ["syntax", "SELEC 1", ProgrammingError, /^Parser Error/],
      ["unknown column", "SELECT nope FROM u", ProgrammingError, /^Binder Error/],
      ["unknown table", "SELECT * FROM missing_table", ProgrammingError, /^Catalog Error/],
      ["bad cast", "SELECT 'abc'::INTEGER", DataError, /^Conversion Error/],
      ["overflow", "SELECT 2147483647::INTEGER + 1", DataError, /^Out of Range Error/],
      ["duplicate key", "INSERT INTO u VALUES (1, 1), (1, 2)", IntegrityError, /^Constraint Error/],
      ["not null", "INSERT INTO u VALUES (2, NULL)", IntegrityError, /^Constraint Error/],
    ];
    for (const [label, sql, ErrorClass, message] of cases) {
      it(`${label} → ${ErrorClass.name}`, async () => {
        const error = await failureOf(conn.run(sql));
        expect(error).to.be.instanceOf(ErrorClass);
        expect(error).to.be.instanceOf(WarehouseError);
        expect(error.message).to.match(message);
        expect(error.cause).to.be.instanceOf(Error);
        expect((error.cause as Error).message).to.equal(error.message);
        expect((error as WarehouseError).code).to.be.a("string");
      });
    }

    it("maps the other DuckDB prefixes and semantic-layer kinds", () => {
      expect(mapDuckDBError(new Error("Not implemented Error: x"))).to.be.instanceOf(NotSupportedError);
      expect(mapDuckDBError(new Error("IO Error: x"))).to.be.instanceOf(OperationalError);
      expect(mapDuckDBError(new Error("TransactionContext Error: x"))).to.be.instanceOf(OperationalError);
      expect(mapDuckDBError(new Error("INTERNAL Error: x"))).to.be.instanceOf(InternalError);
      expect(mapDuckDBError(new Error("Invalid Input Error: x"))).to.be.instanceOf(ProgrammingError);
      expect(mapDuckDBError(new Error("something unprefixed"))).to.be.instanceOf(WarehouseError);
      const notFound = new SemanticViewError("not_found", "semantic view 'x' does not exist");
      const mapped = mapDuckDBError(notFound);
      expect(mapped).to.be.instanceOf(InternalError);
      expect(mapped.cause).to.equal(notFound);
      expect(mapped.message).to.equal(notFound.message);
      expect(mapDuckDBError(new SemanticViewError("parse", "x"))).to.be.instanceOf(ProgrammingError);
      expect(mapDuckDBError(new SemanticViewError("invalid", "x"))).to.be.instanceOf(ProgrammingError);
      expect(mapDuckDBError(new SemanticViewError("execution", "x"))).to.be.instanceOf(OperationalError);
      const already = new DataError("kept");
      expect(mapDuckDBError(already)).to.equal(already);
    });
  });

  describe("semantic-view routing", () => {
    /** A stand-in layer for the routing contract: it answers `SHOW THINGS` itself and rewrites `MAGIC`. */
    function recordingLayer(seen: string[]): SemanticLayer {
      return {
        splitStatements: splitSqlStatements,
        mayHandle: (sql) => /\b(things|magic)\b/i.test(sql),
        async handle(session, statement) {
          seen.push(statement);
          if (/^show things/i.test(statement)) {
            const raw = await session.query("SELECT 12.50::DECIMAL(10,2) AS price, 7::BIGINT AS n");
            return {
              kind: "result",
              columns: [
                { name: "price", type: raw.columns[0]!.type },
                { name: "n", type: "BIGINT" },
              ],
              rows: raw.rows,
            };
          }
          if (/magic/i.test(statement)) return { kind: "rewritten", sql: statement.replace(/magic/i, "42") };
          return { kind: "passthrough" };
        },
      };
    }

    it("BEGIN runs on its own before the layer's first statement; when that fails the connection is clean again, autocommit still off", async () => {
      const failing: SemanticLayer = {
        splitStatements: splitSqlStatements,
        mayHandle: (sql) => /\bbroken\b/i.test(sql),
        async handle(session) {
          await session.query("SELECT * FROM no_such_table");
          return { kind: "passthrough" };
        },
      };
      const path = tmp.file();
      await using engine = engineFromSettings(
        cSettings({ database: path, semanticViews: "builtin", poolSize: 2, maxOverflow: 0 }),
        {
          driverOptions: { semanticLayer: failing },
        },
      );
      await using conn = await engine.connect();
      const error = await failureOf(conn.all("SELECT 'broken' AS x"));
      expect(error).to.be.instanceOf(ProgrammingError);
      expect(error.message).to.match(/no_such_table/);
      // No rollback needed: the failed call's transaction was rolled back with it.
      await conn.run("CREATE TABLE after_failure AS SELECT 1 AS x");
      await using other = await engine.connect();
      expect(
        await other.all("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'after_failure'"),
      ).to.deep.equal([{ n: 0n }]);
      await conn.commit();
      await other.rollback(); // a fresh snapshot for the reader
      expect(await other.all("SELECT x FROM after_failure")).to.deep.equal([{ x: 1 }]);
    });

    it("builtin: results, rewrites and passthrough; the layer's session joins the caller's transaction", async () => {
      const seen: string[] = [];
      await using engine = engineFromSettings(cSettings({ semanticViews: "builtin" }), {
        driverOptions: { semanticLayer: recordingLayer(seen) },
      });
      await using conn = await engine.connect();
      const shown = await conn.execute("SHOW THINGS");
      expect(shown.columns).to.deep.equal([
        { name: "price", type: "DECIMAL(10,2)", kind: "decimal" },
        { name: "n", type: "BIGINT", kind: "bigint" },
      ]);
      expect(String(shown.rows[0]![0])).to.equal("12.50");
      expect(shown.rows[0]![1]).to.equal(7n);
      expect(await conn.all("SELECT magic AS v")).to.deep.equal([{ v: 42 }]);
      expect(await conn.all("SELECT ? + magic AS v", [1])).to.deep.equal([{ v: 43 }]);
      expect(
        await conn.all(
          "CREATE TABLE things (x INTEGER); INSERT INTO things VALUES (1); SELECT count(*) AS n FROM things",
        ),
      ).to.deep.equal([{ n: 1n }]);
      expect(seen).to.have.length(6);
      await conn.rollback();
      expect((await failureOf(conn.all("SELECT * FROM things"))).message).to.match(/Catalog Error/);
      expect(await conn.all("SELECT 1 AS plain")).to.deep.equal([{ plain: 1 }]);
      expect(seen).to.have.length(7); // "things" in the failing statement went through the layer too
    });

    it("builtin: parameters with several statements are refused", async () => {
      await using engine = engineFromSettings(cSettings({ semanticViews: "builtin" }), {
        driverOptions: { semanticLayer: recordingLayer([]) },
      });
      await using conn = await engine.connect();
      expect(await failureOf(conn.all("SELECT magic; SELECT ?", [1]))).to.be.instanceOf(ProgrammingError);
    });

    it("extension: everything passes through to DuckDB", async () => {
      const seen: string[] = [];
      await using engine = engineFromSettings(cSettings({ semanticViews: "extension" }), {
        driverOptions: { semanticLayer: recordingLayer(seen) },
      });
      await using conn = await engine.connect();
      expect(await failureOf(conn.all("SELECT magic"))).to.be.instanceOf(ProgrammingError);
      expect(seen).to.deep.equal([]);
    });

    it("auto without the extension installed uses the built-in layer", async () => {
      const seen: string[] = [];
      await using engine = engineFromSettings(cSettings({ semanticViews: "auto" }), {
        driverOptions: { semanticLayer: recordingLayer(seen) },
      });
      await using conn = await engine.connect();
      expect(await conn.all("SELECT magic AS v")).to.deep.equal([{ v: 42 }]);
      expect(seen).to.deep.equal(["SELECT magic AS v"]);
    });

    it("the production layer handles INSTALL/LOAD and semantic DDL offline", async () => {
      await using engine = engineFromSettings(cSettings({ semanticViews: "auto" }));
      await using conn = await engine.connect();
      await conn.run("INSTALL semantic_views; LOAD semantic_views");
      await conn.run("CREATE TABLE s (k VARCHAR, v INTEGER); INSERT INTO s VALUES ('a', 1), ('a', 2), ('b', 5)");
      await conn.run("CREATE SEMANTIC VIEW sv AS TABLES (s) DIMENSIONS (s.k AS k) METRICS (s.total AS SUM(v))");
      await conn.run("COMMIT");
      const rows = await conn.all(
        "SELECT * FROM semantic_view('sv', dimensions := ['k'], metrics := ['total']) ORDER BY k",
      );
      expect(rows).to.deep.equal([
        { k: "a", total: 3n },
        { k: "b", total: 5n },
      ]);
      const missing = await failureOf(conn.all("SELECT * FROM semantic_view('nope', metrics := ['total'])"));
      expect(missing).to.be.instanceOf(InternalError);
    });

    it("a rolled-back first definition leaves no stale catalog memo behind", async () => {
      await using engine = engineFromSettings(cSettings({ semanticViews: "builtin" }));
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE s (k VARCHAR, v INTEGER); INSERT INTO s VALUES ('a', 1)");
      await conn.commit();
      await conn.run("CREATE SEMANTIC VIEW sv AS TABLES (s) DIMENSIONS (s.k AS k) METRICS (s.total AS SUM(v))");
      expect(await conn.all("SELECT * FROM semantic_view('sv', metrics := ['total'])")).to.deep.equal([{ total: 1n }]);
      await conn.rollback(); // takes the catalog table itself away again
      const missing = await failureOf(conn.all("SELECT * FROM semantic_view('sv', metrics := ['total'])"));
      expect(missing).to.be.instanceOf(InternalError);
      expect(missing.message).to.match(/Semantic view 'sv' not found/);
    });
  });

  it("the statement splitter respects quotes, dollar quotes and comments", () => {
    expect(splitSqlStatements("SELECT ';'; -- c; x\nSELECT $$a;b$$; /* ; */ SELECT \"x;y\";;")).to.deep.equal([
      "SELECT ';'",
      "-- c; x\nSELECT $$a;b$$",
      '/* ; */ SELECT "x;y"',
    ]);
    expect(transactionControlOf("  -- hi\n commit")).to.equal("commit");
    expect(transactionControlOf("START TRANSACTION")).to.equal("begin");
    expect(transactionControlOf("SELECT 1 AS end")).to.equal(undefined);
    expect(transactionControlOf("abort")).to.equal("rollback");
  });
});
