/**
 * docs/explanation/transactional-ddl-and-limitations.rst: CREATE, DROP and ALTER join the caller's
 * transaction; a plain DROP or ALTER of a missing view is an error while IF EXISTS stays silent; read-only
 * databases (bootstrapped: reads work; fresh: zero views; DDL: DuckDB's read-only error). The page's
 * "reads inside an open transaction see committed state" and single-catalog ATTACH rules differ here by
 * design (runtime/semantic/README.md, "Catalog and transactions").
 */
import { expect } from "chai";
import { join } from "node:path";
import { DocsRunner } from "../support/docs-runner.js";
import { useTempDir } from "../../support/temp-dir.js";

const ORDERS = `
  CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER);
  INSERT INTO orders VALUES (1, 'East', 10), (2, 'West', 5), (3, 'East', 1);`;

describe("docs: explanation/transactional-ddl-and-limitations", () => {
  describe("DDL participates in the transaction", () => {
    let db: DocsRunner;
    beforeEach(async () => {
      db = await DocsRunner.open();
      await db.run(ORDERS);
    });
    afterEach(() => db.close());

    const names = async () => (await db.run("SELECT name FROM list_terse_semantic_views() ORDER BY name")).rows;
    const create = `CREATE SEMANTIC VIEW order_metrics AS
        TABLES (o AS orders) DIMENSIONS (o.region AS o.region)`;

    it("ROLLBACK discards a CREATE, a DROP and a RENAME", async () => {
      await db.run(`BEGIN; ${create}; ROLLBACK;`);
      expect(await names()).to.deep.equal([]);
      await db.run(create);
      await db.run("BEGIN; DROP SEMANTIC VIEW order_metrics; ROLLBACK;");
      expect(await names()).to.deep.equal([["order_metrics"]]);
      await db.run("BEGIN; ALTER SEMANTIC VIEW order_metrics RENAME TO sales_metrics; ROLLBACK;");
      expect(await names()).to.deep.equal([["order_metrics"]]);
      expect(await db.rows("SELECT * FROM semantic_view('order_metrics', dimensions := ['region'])")).to.deep.equal([
        ["East"],
        ["West"],
      ]);
    });

    it("every CREATE form and ALTER SET/UNSET COMMENT roll back; COMMIT keeps them", async () => {
      await db.run(`BEGIN;
        CREATE SEMANTIC VIEW y FROM YAML $$
        tables: [{alias: o, table: orders, pk_columns: [id]}]
        dimensions: [{name: region, expr: o.region, source_table: o}]
        metrics: []
        $$;
        ${create.replace("CREATE", "CREATE OR REPLACE")};
        ROLLBACK;`);
      expect(await names()).to.deep.equal([]);
      await db.run(`BEGIN; ${create}; COMMIT;`);
      await db.run("BEGIN; ALTER SEMANTIC VIEW order_metrics SET COMMENT = 'pending'; ROLLBACK;");
      expect((await db.run("SELECT comment FROM list_semantic_views()")).rows).to.deep.equal([[""]]);
      await db.run("BEGIN; ALTER SEMANTIC VIEW order_metrics SET COMMENT = 'kept'; COMMIT;");
      expect((await db.run("SELECT comment FROM list_semantic_views()")).rows).to.deep.equal([["kept"]]);
    });

    it("a plain DROP or ALTER of a missing view is an error; IF EXISTS is a silent no-op", async () => {
      expect((await db.error("DROP SEMANTIC VIEW my_view")).message).to.equal("semantic view 'my_view' does not exist");
      expect((await db.error("ALTER SEMANTIC VIEW my_view SET COMMENT = 'x'")).message).to.equal(
        "semantic view 'my_view' does not exist",
      );
      await db.run("DROP SEMANTIC VIEW IF EXISTS my_view; ALTER SEMANTIC VIEW IF EXISTS my_view UNSET COMMENT");
    });
  });

  describe("read-only databases", () => {
    const tmp = useTempDir();

    it("bootstrap-then-reopen: a view defined writable answers read-only; DDL gets DuckDB's read-only error", async () => {
      const path = join(tmp.path, "analytics.duckdb");
      {
        await using rw = await DocsRunner.open(path);
        await rw.run(ORDERS.replaceAll("orders", "orders_table"));
        await rw.run(`
          CREATE SEMANTIC VIEW orders AS
            TABLES (o AS orders_table PRIMARY KEY (id))
            DIMENSIONS (o.region AS o.region)
            METRICS (o.total AS SUM(o.amount))`);
      }
      await using ro = await DocsRunner.open(path, { access_mode: "READ_ONLY" });
      expect(
        await ro.rows("SELECT * FROM semantic_view('orders', dimensions := ['region'], metrics := ['total'])"),
      ).to.deep.equal([
        ["East", 11n],
        ["West", 5n],
      ]);
      expect((await ro.run("SELECT name FROM list_terse_semantic_views()")).rows).to.deep.equal([["orders"]]);
      for (const ddl of [
        "DROP SEMANTIC VIEW orders",
        "ALTER SEMANTIC VIEW orders SET COMMENT = 'x'",
        "CREATE SEMANTIC VIEW again AS TABLES (o AS orders_table) DIMENSIONS (o.region AS o.region)",
      ]) {
        let message = "";
        try {
          await ro.run(ddl);
        } catch (error) {
          message = String(error);
        }
        expect(message, ddl).to.match(/read-only mode/);
      }
    });

    it("a fresh read-only database has zero views, and a lookup is the ordinary not-found error", async () => {
      const path = join(tmp.path, "fresh.duckdb");
      {
        await using rw = await DocsRunner.open(path);
        await rw.run(ORDERS);
      }
      await using ro = await DocsRunner.open(path, { access_mode: "READ_ONLY" });
      expect((await ro.run("SELECT * FROM list_semantic_views()")).rows).to.deep.equal([]);
      expect((await ro.error("SELECT * FROM describe_semantic_view('anything')")).message).to.equal(
        "semantic view 'anything' does not exist",
      );
      expect((await ro.error("SELECT * FROM semantic_view('anything', dimensions := ['region'])")).message).to.contain(
        "'anything' not found",
      );
    });
  });
});
