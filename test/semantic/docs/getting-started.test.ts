/**
 * docs/tutorials/getting-started.rst: one table, the three query modes, an outer filter, SHOW and
 * DROP. Expected rows are the page's output tables.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: tutorials/getting-started", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      INSTALL semantic_views FROM community;
      LOAD semantic_views;
      CREATE TABLE orders (id INTEGER, region VARCHAR, category VARCHAR, amount DECIMAL(10,2));
      INSERT INTO orders VALUES
          (1, 'East',  'Hardware', 25.00),
          (2, 'East',  'Software', 50.00),
          (3, 'West',  'Hardware', 25.00),
          (4, 'West',  'Software', 100.00),
          (5, 'East',  'Hardware', 50.00);
      CREATE SEMANTIC VIEW order_metrics AS
      TABLES (
          o AS orders PRIMARY KEY (id)
      )
      DIMENSIONS (
          o.region AS o.region,
          o.category AS o.category
      )
      METRICS (
          o.revenue AS SUM(o.amount),
          o.order_count AS COUNT(*)
      );`);
  });
  after(() => db.close());

  const text = async (sql: string): Promise<unknown[][]> =>
    (await db.run(`SELECT COLUMNS(*)::VARCHAR FROM (${sql}) ORDER BY ALL`)).rows;

  it("SHOW SEMANTIC VIEWS lists the view", async () => {
    // The column set itself is covered with the introspection pages.
    const { columns, rows } = await db.run("SHOW SEMANTIC VIEWS");
    const at = (name: string): number => columns.findIndex((c) => c.name === name);
    expect(rows.map((r) => ["name", "kind", "database_name", "schema_name"].map((c) => r[at(c)]))).to.deep.equal([
      ["order_metrics", "SEMANTIC_VIEW", "memory", "main"],
    ]);
  });

  it("dimensions and metrics together", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region', 'category'], metrics := ['revenue', 'order_count'])",
      ),
    ).to.deep.equal([
      ["East", "Hardware", "75.00", "2"],
      ["East", "Software", "50.00", "1"],
      ["West", "Hardware", "25.00", "1"],
      ["West", "Software", "100.00", "1"],
    ]);
  });

  it("dimensions only: distinct values", async () => {
    expect(await text("SELECT * FROM semantic_view('order_metrics', dimensions := ['region'])")).to.deep.equal([
      ["East"],
      ["West"],
    ]);
  });

  it("metrics only: the grand total", async () => {
    expect(
      await text("SELECT * FROM semantic_view('order_metrics', metrics := ['revenue', 'order_count'])"),
    ).to.deep.equal([["250.00", "5"]]);
  });

  it("an outer WHERE filters the result", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue']) WHERE region = 'East'",
      ),
    ).to.deep.equal([["East", "125.00"]]);
  });

  it("DROP removes the view", async () => {
    await db.run("DROP SEMANTIC VIEW order_metrics");
    const e = await db.error("SELECT * FROM semantic_view('order_metrics', metrics := ['revenue'])");
    expect(e.message).to.contain("Semantic view 'order_metrics' not found");
  });
});
