/**
 * docs/reference/semantic-view-function.rst: the four query modes, output order, names and types
 * (a dimension keeps its expression's type; aggregates as DuckDB types them, HUGEINT as BIGINT),
 * name resolution, and duplicates detected on the resolved member.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/semantic-view-function", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR, qty SMALLINT, amount DECIMAL(10,2), ordered_at DATE, rush BOOLEAN, tax_rate DOUBLE);
      INSERT INTO orders VALUES (1, 'East', 2, 10.50, DATE '2024-01-02', true, 0.1), (2, 'West', 3, 20.00, DATE '2024-02-03', false, 0.2), (3, 'East', 1, 5.25, DATE '2024-02-10', false, 0.1);
      CREATE SEMANTIC VIEW order_metrics AS
      TABLES (o AS orders PRIMARY KEY (id))
      FACTS (o.net_price AS o.amount * (1 - o.tax_rate), o.tax_amount AS o.amount * o.tax_rate)
      DIMENSIONS (o.region AS o.region, o.qty AS o.qty, o.ordered_at AS o.ordered_at, o.rush AS o.rush, o."order day" AS o.ordered_at)
      METRICS (o.revenue AS SUM(o.amount), o.units AS SUM(o.qty), o.order_count AS COUNT(*), o.avg_qty AS AVG(o.qty), o.max_qty AS MAX(o.qty))`);
  });
  after(() => db.close());

  it("dimensions + metrics: grouped, dimensions first in request order", async () => {
    const sql =
      "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['order_count', 'units'])";
    expect(await db.rows(sql)).to.deep.equal([
      ["East", 2n, 3n],
      ["West", 1n, 3n],
    ]);
    expect(Object.keys(await db.types(sql))).to.deep.equal(["region", "order_count", "units"]);
  });

  it("dimensions only: distinct values; metrics only: one row", async () => {
    expect(await db.rows("SELECT * FROM semantic_view('order_metrics', dimensions := ['region'])")).to.deep.equal([
      ["East"],
      ["West"],
    ]);
    expect(await db.rows("SELECT * FROM semantic_view('order_metrics', metrics := ['order_count'])")).to.deep.equal([
      [3n],
    ]);
  });

  it("facts mode: one row per source row, dimensions without grouping", async () => {
    const rows = await db.rows(
      "SELECT region, round(net_price, 3) FROM semantic_view('order_metrics', dimensions := ['region'], facts := ['net_price'])",
    );
    expect(rows.map((r) => [r[0], Number(r[1])])).to.deep.equal([
      ["East", 4.725],
      ["East", 9.45],
      ["West", 16],
    ]);
  });

  it("a dimension keeps its expression's type; aggregates keep DuckDB's, HUGEINT as BIGINT", async () => {
    expect(
      await db.types(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['qty', 'ordered_at', 'rush'], metrics := ['revenue', 'units', 'order_count', 'avg_qty', 'max_qty'])",
      ),
    ).to.deep.equal({
      qty: "SMALLINT",
      ordered_at: "DATE",
      rush: "BOOLEAN",
      revenue: "DECIMAL(38,2)",
      units: "BIGINT",
      order_count: "BIGINT",
      avg_qty: "DOUBLE",
      max_qty: "SMALLINT",
    });
  });

  it("a quoted member name gives a column named by its logical value", async () => {
    const { columns, rows } = await db.run(
      "SELECT * FROM semantic_view('order_metrics', dimensions := ['\"order day\"']) ORDER BY 1",
    );
    expect(columns.map((c) => [c.name, c.type])).to.deep.equal([["order day", "DATE"]]);
    expect(rows).to.have.length(3);
  });

  it("names resolve case-insensitively, qualified or not; the view name too", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('ORDER_METRICS', dimensions := ['O.REGION'], metrics := ['Order_Count'])",
      ),
    ).to.deep.equal([
      ["East", 2n],
      ["West", 1n],
    ]);
  });

  it("duplicates are detected on the resolved member", async () => {
    const e = await db.error("SELECT * FROM semantic_view('order_metrics', dimensions := ['region', 'o.region'])");
    expect(e.message).to.contain("semantic view 'order_metrics': duplicate dimension 'region'");
  });

  it("an outer WHERE, ORDER BY and LIMIT apply to the result", async () => {
    expect(
      (
        await db.run(
          "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['units']) ORDER BY units DESC, region LIMIT 1",
        )
      ).rows,
    ).to.deep.equal([["East", 3n]]);
  });
});
