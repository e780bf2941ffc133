/**
 * Which tables a query joins and which rows it keeps, as the extension decides
 * (`src/expand/where_clause.rs`, `src/expand/sql_gen.rs`, `src/expand/resolution.rs`):
 * - a `where_clause` member joins its own table (its expression may name columns bare) and the
 *   tables of the facts it reaches, and takes part in the fan-trap check by that table;
 * - the phantom-row guard applies when the listed members sit on one table *below* the base (a
 *   parent with no children gives no row and no NULL group), never above it (an order whose
 *   customer is missing is still a row of the view);
 * - every table is qualified as the definition resolved it, so views over other schemas and
 *   databases answer from any session context.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";

describe("conformance: joins, phantom rows and table qualification", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, name VARCHAR, tier VARCHAR);
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, status VARCHAR, amount INTEGER);
      INSERT INTO customers VALUES (1, 'Ann', 'gold'), (2, 'Bo', 'silver');
      INSERT INTO orders VALUES (1, 1, 'open', 10), (2, 1, 'done', 20), (3, 9, 'open', 5);`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  describe("where_clause members reaching other tables", () => {
    before(async () => {
      await db.run(`
        CREATE SEMANTIC VIEW bare_columns AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
        FACTS (c.tier_f AS tier, o.cust_tier AS c.tier_f)
        DIMENSIONS (c.tier AS tier, c.name AS name)
        METRICS (o.total AS SUM(o.amount), c.customers AS COUNT(*));`);
    });

    it("a dimension whose expression names its table's columns bare joins that table", async () => {
      expect(
        await text(
          "SELECT * FROM semantic_view('bare_columns', metrics := ['total'], where_clause := 'tier = ''gold''')",
        ),
      ).to.deep.equal([["30"]]);
    });

    it("a fact on another table, and a fact reaching it through another fact, join its table", async () => {
      for (const member of ["tier_f", "cust_tier"]) {
        expect(
          await text(
            `SELECT * FROM semantic_view('bare_columns', metrics := ['total'], where_clause := '${member} = ''gold''')`,
          ),
          member,
        ).to.deep.equal([["30"]]);
      }
    });

    it("the member's own table takes part in the fan-trap check", async () => {
      const error = await db.error(
        "SELECT * FROM semantic_view('bare_columns', metrics := ['customers'], where_clause := 'cust_tier = ''gold''')",
      );
      expect(error.message).to.contain(
        "fan trap detected -- metric 'customers' (table 'c') would be duplicated when joined to where_clause (table 'o')",
      );
    });
  });

  describe("the phantom-row guard", () => {
    before(async () => {
      await db.run(`
        CREATE SEMANTIC VIEW by_customer AS
        TABLES (c AS customers PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
        RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
        DIMENSIONS (c.name AS c.name, o.status AS o.status)
        METRICS (o.total AS SUM(o.amount), o.orders AS COUNT(*));
        CREATE SEMANTIC VIEW by_order AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
        DIMENSIONS (c.name AS c.name, o.status AS o.status)
        METRICS (o.total AS SUM(o.amount));`);
    });

    it("a customer without orders gives no order-status group (members on one table below the base)", async () => {
      expect(
        await text(
          "SELECT * FROM semantic_view('by_customer', dimensions := ['status'], metrics := ['total', 'orders']) ORDER BY ALL",
        ),
      ).to.deep.equal([
        ["done", "20", "1"],
        ["open", "10", "1"],
      ]);
      expect(
        await text("SELECT * FROM semantic_view('by_customer', dimensions := ['status']) ORDER BY ALL"),
      ).to.deep.equal([["done"], ["open"]]);
    });

    it("members on the base and a child keep the childless customer", async () => {
      expect(
        await text(
          "SELECT * FROM semantic_view('by_customer', dimensions := ['name'], metrics := ['orders']) ORDER BY ALL",
        ),
      ).to.deep.equal([
        ["Ann", "2"],
        ["Bo", "0"],
      ]);
    });

    it("an order whose customer is missing is a row of an orders-based view (table above the base)", async () => {
      expect(await text("SELECT * FROM semantic_view('by_order', dimensions := ['name']) ORDER BY ALL")).to.deep.equal([
        ["Ann"],
        [null],
      ]);
      expect(
        await text(
          "SELECT * FROM semantic_view('by_order', dimensions := ['name'], metrics := ['total']) ORDER BY ALL",
        ),
      ).to.deep.equal([
        ["Ann", "30"],
        [null, "5"],
      ]);
    });
  });

  describe("tables in other schemas and databases", () => {
    before(async () => {
      await db.run(`
        CREATE SCHEMA sales;
        CREATE TABLE sales.orders (id INTEGER, amount INTEGER, region VARCHAR);
        INSERT INTO sales.orders VALUES (1, 10, 'EU'), (2, 20, 'US');
        ATTACH ':memory:' AS crm;
        CREATE TABLE crm.main.accounts (id INTEGER, owner VARCHAR);
        INSERT INTO crm.main.accounts VALUES (1, 'Kim');
        USE memory.sales;
        CREATE SEMANTIC VIEW in_sales AS
          TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.total AS SUM(o.amount));
        USE memory.main;
        CREATE SEMANTIC VIEW across AS
          TABLES (o AS sales.orders PRIMARY KEY (id), a AS crm.main.accounts PRIMARY KEY (id))
          RELATIONSHIPS (oa AS o(id) REFERENCES a)
          DIMENSIONS (a.owner AS a.owner)
          METRICS (o.total AS SUM(o.amount));`);
    });

    it("an unqualified table found in the creating session's schema is read there from any schema", async () => {
      // `orders` also exists in main: the view still reads sales.orders, as resolved at CREATE.
      expect(
        await text(
          "SELECT * FROM semantic_view('sales.in_sales', dimensions := ['region'], metrics := ['total']) ORDER BY ALL",
        ),
      ).to.deep.equal([
        ["EU", "10"],
        ["US", "20"],
      ]);
      const sql = (
        await db.run("SELECT explain_output FROM explain_semantic_view('sales.in_sales', metrics := ['total'])")
      ).rows.map((r) => r[0]);
      expect(sql).to.include('FROM "memory"."sales"."orders" AS "o"');
    });

    it("a database file attached under another name keeps answering (its own database follows it)", async () => {
      const folder = mkdtempSync(join(tmpdir(), "lib-renamed-db-"));
      const file = join(folder, "first.duckdb").replace(/'/g, "''");
      try {
        await db.run(`
          ATTACH '${file}' AS first_name;
          USE first_name;
          CREATE TABLE t (id INTEGER, v INTEGER);
          INSERT INTO t VALUES (1, 5), (2, 6);
          CREATE SEMANTIC VIEW moved AS TABLES (t AS t PRIMARY KEY (id)) METRICS (t.total AS SUM(t.v));
          USE memory.main;
          DETACH first_name;
          ATTACH '${file}' AS second_name;
          USE second_name;`);
        expect(await text("SELECT * FROM semantic_view('moved', metrics := ['total'])")).to.deep.equal([["11"]]);
        expect(await text("SELECT database_name FROM list_semantic_views()")).to.deep.equal([["second_name"]]);
      } finally {
        await db.run("USE memory.main; DETACH DATABASE IF EXISTS second_name");
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it("schema- and database-qualified tables keep their qualification", async () => {
      expect(
        await text("SELECT * FROM semantic_view('across', dimensions := ['owner'], metrics := ['total']) ORDER BY ALL"),
      ).to.deep.equal([
        ["Kim", "10"],
        [null, "20"],
      ]);
      const sql = (
        await db.run(
          "SELECT explain_output FROM explain_semantic_view('across', dimensions := ['owner'], metrics := ['total'])",
        )
      ).rows.map((r) => r[0]);
      expect(sql).to.include('FROM "sales"."orders" AS "o"');
      expect(sql).to.include('LEFT JOIN "crm"."main"."accounts" AS "a"');
    });
  });
});
