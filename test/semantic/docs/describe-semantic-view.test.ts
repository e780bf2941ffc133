/** docs/reference/describe-semantic-view.rst: property rows per object, in definition order. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/DESCRIBE SEMANTIC VIEW", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, amount DOUBLE)");
  });
  after(() => runner.close());

  it("the annotated example: view comment first, then table, dimension and metric properties", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW annotated AS
      TABLES (o AS orders PRIMARY KEY (id) COMMENT = 'Order data')
      DIMENSIONS (o.region AS o.region COMMENT = 'Sales region' WITH SYNONYMS = ('territory'))
      METRICS (o.revenue AS SUM(o.amount) COMMENT = 'Total revenue')`,
    );
    await runStatement(runner, "ALTER SEMANTIC VIEW annotated SET COMMENT = 'Revenue analytics'");
    const r = await runStatement(runner, "DESCRIBE SEMANTIC VIEW annotated");
    expect(r.columns).to.deep.equal(["object_kind", "object_name", "parent_entity", "property", "property_value"]);
    expect(r.rows).to.deep.equal([
      ["SEMANTIC_VIEW", "annotated", "", "COMMENT", "Revenue analytics"],
      ["TABLE", "orders", "", "BASE_TABLE_DATABASE_NAME", "memory"],
      ["TABLE", "orders", "", "BASE_TABLE_SCHEMA_NAME", "main"],
      ["TABLE", "orders", "", "BASE_TABLE_NAME", "orders"],
      ["TABLE", "orders", "", "PRIMARY_KEY", '["id"]'],
      ["TABLE", "orders", "", "COMMENT", "Order data"],
      ["DIMENSION", "region", "orders", "TABLE", "orders"],
      ["DIMENSION", "region", "orders", "EXPRESSION", "o.region"],
      ["DIMENSION", "region", "orders", "DATA_TYPE", ""],
      ["DIMENSION", "region", "orders", "COMMENT", "Sales region"],
      ["DIMENSION", "region", "orders", "SYNONYMS", '["territory"]'],
      ["METRIC", "revenue", "orders", "TABLE", "orders"],
      ["METRIC", "revenue", "orders", "EXPRESSION", "SUM(o.amount)"],
      ["METRIC", "revenue", "orders", "DATA_TYPE", ""],
      ["METRIC", "revenue", "orders", "COMMENT", "Total revenue"],
      ["METRIC", "revenue", "orders", "ACCESS_MODIFIER", "PUBLIC"],
    ]);
  });

  it("materialization rows, filtered and counted through describe_semantic_view() (the page's FROM (DESCRIBE ...) is a parser error: reference/functions)", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW order_metrics AS
      TABLES (o AS orders PRIMARY KEY (id))
      DIMENSIONS (o.region AS o.region)
      METRICS (o.revenue AS SUM(o.amount), o.order_count AS COUNT(*))
      MATERIALIZATIONS (region_agg AS (TABLE daily_revenue_agg, DIMENSIONS (region), METRICS (revenue, order_count)))`,
    );
    const r = await runStatement(
      runner,
      "SELECT * FROM describe_semantic_view('order_metrics') WHERE object_kind = 'MATERIALIZATION'",
    );
    expect(r.rows).to.deep.equal([
      ["MATERIALIZATION", "region_agg", "", "TABLE", "daily_revenue_agg"],
      ["MATERIALIZATION", "region_agg", "", "DIMENSIONS", '["region"]'],
      ["MATERIALIZATION", "region_agg", "", "METRICS", '["revenue","order_count"]'],
    ]);
    const counted = await runStatement(
      runner,
      "SELECT object_kind, COUNT(DISTINCT object_name) AS n FROM describe_semantic_view('order_metrics') GROUP BY object_kind ORDER BY object_kind",
    );
    expect(counted.rows).to.deep.equal([
      ["DIMENSION", 1n],
      ["MATERIALIZATION", 1n],
      ["METRIC", 2n],
      ["TABLE", 1n],
    ]);
  });

  it("a missing view is an error", async () => {
    expect(await errorOf(runner, "DESCRIBE SEMANTIC VIEW nonexistent_view")).to.equal(
      "semantic view 'nonexistent_view' does not exist",
    );
  });
});
