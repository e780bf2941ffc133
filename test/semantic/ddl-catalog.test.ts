import { expect } from "chai";
import { join } from "node:path";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { listDefinitions, loadDefinition } from "../../runtime/semantic/catalog.js";
import { type HandledStatement } from "../../runtime/semantic/semantic-layer.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { UNCOMMITTED_MEMO_KEY } from "../../runtime/semantic/semantic-layer.js";
import { TestSession } from "./support/session.js";
import { useTempDir } from "../support/temp-dir.js";

const layer = createBuiltinSemanticLayer();

const SALES =
  "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country, sales_data.region AS region) METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))";

async function seed(session: TestSession): Promise<void> {
  await session.query("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
  await session.query("INSERT INTO sales_data VALUES (10, 4, 'DE', 'EU'), (5, 1, 'DE', 'EU'), (7, 3, 'US', 'NA')");
}

async function run(session: TestSession, sql: string): Promise<Extract<HandledStatement, { kind: "result" }>> {
  const r = await layer.handle(session, sql);
  if (r.kind !== "result") throw new Error(`expected a result for ${sql}, got ${r.kind}`);
  return r;
}

async function failure(session: TestSession, sql: string): Promise<SemanticViewError> {
  try {
    await layer.handle(session, sql);
  } catch (e) {
    expect(e).to.be.instanceOf(SemanticViewError);
    return e as SemanticViewError;
  }
  throw new Error(`expected failure: ${sql}`);
}

const names = async (s: TestSession): Promise<string[]> =>
  (await listDefinitions(s)).map((d) => `${d.schemaName}.${d.name}`);

describe("semantic DDL execution and catalog", () => {
  let session: TestSession;
  beforeEach(async () => {
    session = await TestSession.open();
    await seed(session);
  });
  afterEach(() => session.close());

  it("CREATE returns view_name and stores the definition as JSON in semantic_layer._definitions", async () => {
    const r = await run(session, SALES);
    expect(r.columns).to.deep.equal([{ name: "view_name", type: "VARCHAR" }]);
    expect(r.rows).to.deep.equal([["sales"]]);
    const stored = await session.query("SELECT schema_name, name, definition FROM semantic_layer._definitions");
    expect(stored.rows.length).to.equal(1);
    expect(stored.rows[0]!.slice(0, 2)).to.deep.equal(["main", "sales"]);
    const json = JSON.parse(String(stored.rows[0]![2]));
    expect(json).to.include({
      name: "sales",
      databaseName: "memory",
      schemaName: "main",
      resolutionSchemaName: "main",
      schemaVersion: 1,
    });
    expect(json.createdOn).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const def = await loadDefinition(session, "sales");
    expect(def?.dimensions.map((d) => d.name)).to.deep.equal(["country", "region"]);
    expect(def?.metrics.map((m) => m.expr)).to.deep.equal(["SUM(revenue)", "SUM(cost)"]);
  });

  it("INSTALL and LOAD semantic_views succeed as no-ops with an empty result", async () => {
    for (const sql of [
      "INSTALL semantic_views",
      "LOAD semantic_views",
      "INSTALL semantic_views FROM community",
      "FORCE INSTALL 'semantic_views'",
    ]) {
      expect(await layer.handle(session, sql), sql).to.deep.equal({ kind: "result", columns: [], rows: [] });
    }
    expect(await layer.handle(session, "LOAD json")).to.deep.equal({ kind: "passthrough" });
  });

  it("folds view names to lower case; lookups are case-insensitive", async () => {
    await run(session, SALES.replace("VIEW sales", 'VIEW "Sales"'));
    expect(await names(session)).to.deep.equal(["main.sales"]);
    expect((await loadDefinition(session, "SALES"))?.name).to.equal("sales");
    expect((await loadDefinition(session, "main.Sales"))?.name).to.equal("sales");
    expect((await loadDefinition(session, "memory.main.sales"))?.name).to.equal("sales");
    expect(await loadDefinition(session, "other.sales")).to.equal(undefined);
  });

  it("plain CREATE of an existing view fails; IF NOT EXISTS is a no-op; OR REPLACE overwrites", async () => {
    await run(session, SALES);
    const plain = SALES.replace("CREATE OR REPLACE", "CREATE");
    const e = await failure(session, plain);
    expect(e.message).to.equal(
      "semantic view 'sales' already exists; use CREATE OR REPLACE SEMANTIC VIEW to overwrite",
    );
    const ifNot = await run(
      session,
      "CREATE SEMANTIC VIEW IF NOT EXISTS sales AS TABLES (sales_data) DIMENSIONS (sales_data.c AS country)",
    );
    expect(ifNot.rows).to.deep.equal([["sales"]]);
    expect((await loadDefinition(session, "sales"))?.dimensions.length).to.equal(2);
    await run(
      session,
      "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.c AS country)",
    );
    expect((await loadDefinition(session, "sales"))?.dimensions.map((d) => d.name)).to.deep.equal(["c"]);
  });

  it("views are schema-scoped", async () => {
    await session.query("CREATE SCHEMA other");
    await run(session, SALES);
    await run(session, SALES.replace("VIEW sales", "VIEW other.sales"));
    expect(await names(session)).to.deep.equal(["main.sales", "other.sales"]);
    expect((await loadDefinition(session, "other.sales"))?.schemaName).to.equal("other");
    // Unqualified: the current schema wins.
    expect((await loadDefinition(session, "sales"))?.schemaName).to.equal("main");
    // The search_path is consulted after the current schema; a name in several other schemas is ambiguous.
    await session.query("CREATE SCHEMA third");
    await run(session, SALES.replace("VIEW sales", "VIEW third.sales"));
    await session.query("SET search_path = 'third'");
    expect((await loadDefinition(session, "sales"))?.schemaName).to.equal("third");
    await session.query("RESET search_path");
    await run(session, "DROP SEMANTIC VIEW main.sales");
    try {
      await loadDefinition(session, "sales");
      expect.fail("expected ambiguity");
    } catch (e) {
      expect((e as Error).message).to.equal(
        "semantic view name 'sales' is ambiguous: it exists in schemas [other, third]; qualify it as schema.name",
      );
    }
    await run(session, "DROP SEMANTIC VIEW third.sales");
    // Only one left anywhere: an unqualified name finds it.
    expect((await loadDefinition(session, "sales"))?.schemaName).to.equal("other");
  });

  it("DROP removes a view; a missing view is not_found unless IF EXISTS", async () => {
    await run(session, SALES);
    expect((await run(session, "DROP SEMANTIC VIEW sales")).rows).to.deep.equal([["sales"]]);
    expect(await names(session)).to.deep.equal([]);
    const e = await failure(session, "DROP SEMANTIC VIEW sales");
    expect(e.kind).to.equal("not_found");
    expect(e.message).to.equal("semantic view 'sales' does not exist");
    expect((await run(session, "DROP SEMANTIC VIEW IF EXISTS sales")).rows).to.deep.equal([]);
  });

  it("lookups before any CREATE find nothing (no catalog table yet)", async () => {
    expect(await loadDefinition(session, "sales")).to.equal(undefined);
    expect(await listDefinitions(session)).to.deep.equal([]);
    expect((await run(session, "DROP SEMANTIC VIEW IF EXISTS sales")).rows).to.deep.equal([]);
    const tables = await session.query("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'semantic_layer'");
    expect(tables.rows[0]![0]).to.equal(0n);
  });

  it("ALTER ... RENAME TO returns (old_name, new_name) and rejects an existing target", async () => {
    await run(session, SALES);
    const r = await run(session, "ALTER SEMANTIC VIEW sales RENAME TO Revenue");
    expect(r.columns.map((c) => c.name)).to.deep.equal(["old_name", "new_name"]);
    expect(r.rows).to.deep.equal([["sales", "revenue"]]);
    expect(await names(session)).to.deep.equal(["main.revenue"]);
    expect((await loadDefinition(session, "revenue"))?.name).to.equal("revenue");
    await run(session, SALES);
    const e = await failure(session, "ALTER SEMANTIC VIEW sales RENAME TO revenue");
    expect(e.message).to.equal("semantic view 'revenue' already exists");
    const missing = await failure(session, "ALTER SEMANTIC VIEW nope RENAME TO x");
    expect(missing.kind).to.equal("not_found");
    expect(missing.message).to.equal("semantic view 'nope' does not exist");
    expect((await run(session, "ALTER SEMANTIC VIEW IF EXISTS nope RENAME TO x")).rows).to.deep.equal([]);
  });

  it("ALTER ... RENAME TO schema.name moves the view", async () => {
    await session.query("CREATE SCHEMA archive");
    await run(session, SALES);
    await run(session, "ALTER SEMANTIC VIEW sales RENAME TO archive.sales_old");
    expect(await names(session)).to.deep.equal(["archive.sales_old"]);
  });

  it("a schema-qualified name must name an existing schema", async () => {
    const e = await failure(session, SALES.replace("VIEW sales", "VIEW nosuch.sales"));
    expect(e.message).to.equal("schema 'nosuch' does not exist (semantic view 'sales')");
    await run(session, SALES);
    const r = await failure(session, "ALTER SEMANTIC VIEW sales RENAME TO nosuch.sales");
    expect(r.message).to.equal("schema 'nosuch' does not exist (semantic view 'sales')");
  });

  it("ALTER ... SET / UNSET COMMENT returns (name, status)", async () => {
    await run(session, SALES);
    const set = await run(session, "ALTER SEMANTIC VIEW sales SET COMMENT = 'Revenue by country'");
    expect(set.columns.map((c) => c.name)).to.deep.equal(["name", "status"]);
    expect(set.rows).to.deep.equal([["sales", "comment set"]]);
    expect((await loadDefinition(session, "sales"))?.comment).to.equal("Revenue by country");
    expect((await run(session, "ALTER SEMANTIC VIEW sales UNSET COMMENT")).rows).to.deep.equal([
      ["sales", "comment unset"],
    ]);
    expect((await loadDefinition(session, "sales"))?.comment).to.equal(undefined);
  });

  it("DDL joins the caller's transaction: ROLLBACK undoes CREATE, DROP and ALTER", async () => {
    await session.query("BEGIN TRANSACTION");
    await run(session, SALES);
    expect(await names(session)).to.deep.equal(["main.sales"]);
    await session.query("ROLLBACK");
    expect(await names(session)).to.deep.equal([]);

    await run(session, SALES);
    await session.query("BEGIN TRANSACTION");
    await run(session, "DROP SEMANTIC VIEW sales");
    await run(
      session,
      "CREATE OR REPLACE SEMANTIC VIEW other AS TABLES (sales_data) DIMENSIONS (sales_data.c AS country)",
    );
    await session.query("ROLLBACK");
    expect(await names(session)).to.deep.equal(["main.sales"]);

    await session.query("BEGIN TRANSACTION");
    await run(session, "ALTER SEMANTIC VIEW sales SET COMMENT = 'x'");
    await session.query("COMMIT");
    expect((await loadDefinition(session, "sales"))?.comment).to.equal("x");
  });

  it("a session memo spares the catalog scan on later lookups; the creating transaction marks it uncommitted", async () => {
    const memo = new Map<string, unknown>();
    let scans = 0;
    const counting = {
      memo,
      query: (sql: string, parameters?: readonly unknown[]) => {
        if (sql.includes("duckdb_tables()")) scans++;
        return session.query(sql, parameters);
      },
    };
    await layer.handle(counting, SALES);
    expect(memo.get(UNCOMMITTED_MEMO_KEY)).to.equal(true); // the catalog table was created just now
    memo.delete(UNCOMMITTED_MEMO_KEY); // what the connection does on COMMIT
    const before = scans;
    expect((await loadDefinition(counting, "sales"))?.name).to.equal("sales");
    expect((await loadDefinition(counting, "sales"))?.name).to.equal("sales");
    expect(scans).to.equal(before);
  });

  it("passes ordinary statements through untouched", async () => {
    for (const sql of [
      "SELECT 1",
      "SELECT 'semantic' AS s",
      "CREATE TABLE semantic_notes (a INT)",
      "SELECT get_ddl_like FROM sales_data",
    ]) {
      expect(await layer.handle(session, sql), sql).to.deep.equal({ kind: "passthrough" });
    }
  });
});

describe("semantic catalog persistence", () => {
  const tmp = useTempDir();

  it("keeps definitions in a file database across instance restarts", async () => {
    const path = join(tmp.path, "db.duckdb");
    {
      await using s = await TestSession.open(path);
      await seed(s);
      await run(s, SALES);
      await run(s, "ALTER SEMANTIC VIEW sales SET COMMENT = 'kept'");
    }
    {
      await using s = await TestSession.open(path);
      const def = await loadDefinition(s, "sales");
      expect(def?.comment).to.equal("kept");
      expect(def?.databaseName).to.equal("db");
      expect(def?.metrics.map((m) => m.name)).to.deep.equal(["revenue", "cost"]);
      await run(s, "DROP SEMANTIC VIEW sales");
    }
    {
      await using s = await TestSession.open(path);
      expect(await listDefinitions(s)).to.deep.equal([]);
    }
  });

  it("reads from a read-only database without a catalog table find nothing", async () => {
    const path = join(tmp.path, "ro.duckdb");
    {
      await using s = await TestSession.open(path);
      await seed(s);
    }
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    try {
      const session = {
        query: async (sql: string, params: readonly unknown[] = []) => {
          const reader = await connection.runAndReadAll(sql, params.length > 0 ? (params as never) : undefined);
          return {
            columns: reader.columnNames().map((name) => ({ name, type: "" })),
            rows: reader.getRowsJS() as unknown[][],
          };
        },
      };
      expect(await loadDefinition(session, "sales")).to.equal(undefined);
      expect(await layer.handle(session, "SHOW SEMANTIC VIEWS")).to.deep.include({ kind: "result", rows: [] });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
