/**
 * docs/how-to/materializations.rst: declaring MATERIALIZATIONS, exact-match routing, first match
 * wins, the fallback, the explain header, DESCRIBE rows and the documented DDL errors. The
 * pre-aggregated tables deliberately hold numbers that differ from the raw tables, so a test can
 * tell which one answered.
 */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

const ORDER_METRICS = `CREATE OR REPLACE SEMANTIC VIEW order_metrics AS
TABLES (
    o AS orders PRIMARY KEY (id)
)
DIMENSIONS (
    o.region AS o.region,
    o.status AS o.status
)
METRICS (
    o.revenue     AS SUM(o.amount),
    o.order_count AS COUNT(*)
)
MATERIALIZATIONS (
    region_agg AS (
        TABLE daily_revenue_by_region,
        DIMENSIONS (region),
        METRICS (revenue, order_count)
    ),
    region_status_agg AS (
        TABLE revenue_by_region_status,
        DIMENSIONS (region, status),
        METRICS (revenue)
    ),
    same_as_region_agg AS (
        TABLE never_read,
        DIMENSIONS (Region),
        METRICS (Order_Count, Revenue)
    )
)`;

describe("docs/how-to/materializations", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, status VARCHAR, amount INTEGER)");
    await runner.run(
      "INSERT INTO orders VALUES (1, 'east', 'open', 10), (2, 'east', 'done', 20), (3, 'west', 'open', 5)",
    );
    // Pre-aggregated tables with marker values (the raw totals are east 30/2, west 5/1).
    await runner.run("CREATE TABLE daily_revenue_by_region (region VARCHAR, revenue BIGINT, order_count BIGINT)");
    await runner.run("INSERT INTO daily_revenue_by_region VALUES ('east', 3000, 200), ('west', 500, 100)");
    await runner.run("CREATE TABLE revenue_by_region_status (region VARCHAR, status VARCHAR, revenue BIGINT)");
    await runner.run("INSERT INTO revenue_by_region_status VALUES ('east', 'open', 1000)");
    await runStatement(runner, ORDER_METRICS);
  });
  after(() => runner.close());

  const query = async (dims: string[], metrics: string[]): Promise<unknown[][]> =>
    (
      await runStatement(
        runner,
        `SELECT * FROM semantic_view('order_metrics', dimensions := [${dims.map((d) => `'${d}'`).join(", ")}], metrics := [${metrics.map((m) => `'${m}'`).join(", ")}]) ORDER BY ALL`,
      )
    ).rows;

  it("routes a query whose dimensions and metrics exactly match to the pre-aggregated table", async () => {
    expect(await query(["region"], ["revenue", "order_count"])).to.deep.equal([
      ["east", 3000n, 200n],
      ["west", 500n, 100n],
    ]);
  });

  it("matches sets case-insensitively and in any order, qualified names included", async () => {
    expect(await query(["O.REGION"], ["order_count", "Revenue"])).to.deep.equal([
      ["east", 200n, 3000n],
      ["west", 100n, 500n],
    ]);
  });

  it("falls back to expansion for a subset (no superset matching)", async () => {
    expect(await query(["region"], ["revenue"])).to.deep.equal([
      ["east", 30n],
      ["west", 5n],
    ]);
  });

  it("uses the materialization covering exactly the request among several", async () => {
    expect(await query(["region", "status"], ["revenue"])).to.deep.equal([["east", "open", 1000n]]);
    expect(await query(["status", "region"], ["revenue", "order_count"])).to.have.length(3); // no match: expanded
  });

  it("keeps the documented output column names and a typed result", async () => {
    const r = await runStatement(
      runner,
      "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count'])",
    );
    expect(r.columns).to.deep.equal(["region", "revenue", "order_count"]);
  });

  it("an unqualified table resolves where the view's tables do, whatever the current schema", async () => {
    await runner.run("CREATE SCHEMA elsewhere");
    await runner.run(
      "CREATE TABLE elsewhere.daily_revenue_by_region (region VARCHAR, revenue BIGINT, order_count BIGINT)",
    );
    await runner.run("SET schema = 'elsewhere'");
    try {
      const r = await runStatement(
        runner,
        "SELECT * FROM semantic_view('main.order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count']) ORDER BY ALL",
      );
      expect(r.rows).to.deep.equal([
        ["east", 3000n, 200n],
        ["west", 500n, 100n],
      ]);
    } finally {
      await runner.run("SET schema = 'main'");
    }
  });

  it("never routes a where_clause query (the table holds no raw rows to filter)", async () => {
    const r = await runStatement(
      runner,
      "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count'], where_clause := 'status = ''open''') ORDER BY ALL",
    );
    expect(r.rows).to.deep.equal([
      ["east", 10n, 1n],
      ["west", 5n, 1n],
    ]);
  });

  it("never routes a semi-additive metric (the account_metrics example), nor a window metric", async () => {
    await runner.run(`
      CREATE TABLE accounts (id INTEGER, customer_id INTEGER, report_date DATE, balance BIGINT);
      INSERT INTO accounts VALUES (1, 7, DATE '2024-01-01', 100), (2, 7, DATE '2024-02-01', 150), (3, 8, DATE '2024-01-01', 40);
      CREATE TABLE balance_by_customer (customer_id INTEGER, total_balance BIGINT);
      INSERT INTO balance_by_customer VALUES (7, 999999), (8, 999999);
      CREATE SEMANTIC VIEW account_metrics AS
      TABLES (a AS accounts PRIMARY KEY (id))
      DIMENSIONS (a.customer_id AS a.customer_id, a.report_date AS a.report_date)
      METRICS (
          a.total_balance NON ADDITIVE BY (report_date DESC) AS SUM(a.balance),
          a.total AS SUM(a.balance),
          a.running AS SUM(total) OVER (ORDER BY report_date)
      )
      MATERIALIZATIONS (
          balance_agg AS (TABLE balance_by_customer, DIMENSIONS (customer_id), METRICS (total_balance)),
          running_agg AS (TABLE balance_by_customer, DIMENSIONS (report_date), METRICS (running))
      )`);
    const r = await runStatement(
      runner,
      "SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['total_balance']) ORDER BY ALL",
    );
    // Expanded from the raw rows (the materialization holds 999999): DESC takes each customer's first snapshot.
    expect(r.rows).to.deep.equal([
      [7, 100n],
      [8, 40n],
    ]);
    const explained = await runStatement(
      runner,
      "SELECT * FROM explain_semantic_view('account_metrics', dimensions := ['report_date'], metrics := ['running'])",
    );
    expect(explained.rows[3]).to.deep.equal(["-- Materialization: none"]);
  });

  it("explain_semantic_view() reports the routing decision in its header", async () => {
    const lines = async (sql: string) => (await runStatement(runner, sql)).rows.map((r) => r[0]);
    const routed = await lines(
      "SELECT * FROM explain_semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count'])",
    );
    expect(routed.slice(0, 11)).to.deep.equal([
      "-- Semantic View: order_metrics",
      "-- Dimensions: region",
      "-- Metrics: revenue, order_count",
      "-- Materialization: region_agg",
      "",
      "-- Expanded SQL:",
      "SELECT",
      '    "region",',
      '    "revenue",',
      '    "order_count"',
      // The docs' sample shows the bare name; v0.12 qualifies it like every table (qualify_and_quote_table_ref).
      'FROM "memory"."main"."daily_revenue_by_region"',
    ]);
    const fallback = await lines(
      "SELECT * FROM explain_semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue'])",
    );
    expect(fallback[3]).to.equal("-- Materialization: none");
  });

  it("SHOW SEMANTIC MATERIALIZATIONS and DESCRIBE list the declarations", async () => {
    const shown = await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS IN order_metrics");
    expect(shown.rows.map((r) => r[3])).to.deep.equal(["region_agg", "region_status_agg", "same_as_region_agg"]);
    const described = await runStatement(
      runner,
      "SELECT object_kind, object_name, property, property_value FROM describe_semantic_view('order_metrics') WHERE object_kind = 'MATERIALIZATION' AND object_name = 'region_agg'",
    );
    expect(described.rows).to.deep.equal([
      ["MATERIALIZATION", "region_agg", "TABLE", "daily_revenue_by_region"],
      ["MATERIALIZATION", "region_agg", "DIMENSIONS", '["region"]'],
      ["MATERIALIZATION", "region_agg", "METRICS", '["revenue","order_count"]'],
    ]);
  });

  describe("troubleshooting errors", () => {
    const view = (materializations: string, after = "") =>
      `CREATE OR REPLACE SEMANTIC VIEW bad AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount)) ${materializations}${after}`;

    it("an unknown dimension or metric names it and suggests the closest", async () => {
      expect(await errorOf(runner, view("MATERIALIZATIONS (m AS (TABLE t, DIMENSIONS (regoin)))"))).to.include(
        "Materialization 'm': dimension 'regoin' not found in semantic view dimensions. Did you mean 'region'?",
      );
      expect(await errorOf(runner, view("MATERIALIZATIONS (m AS (TABLE t, METRICS (revenu)))"))).to.include(
        "Materialization 'm': metric 'revenu' not found in semantic view metrics. Did you mean 'revenue'?",
      );
    });

    it("the clause must come last, and each entry needs DIMENSIONS or METRICS", async () => {
      expect(
        await errorOf(
          runner,
          "CREATE SEMANTIC VIEW bad AS TABLES (o AS orders) DIMENSIONS (o.region AS o.region) MATERIALIZATIONS (m AS (TABLE t, DIMENSIONS (region))) METRICS (o.revenue AS SUM(o.amount))",
        ),
      ).to.include("Clause 'METRICS' appears out of order");
      expect(await errorOf(runner, view("MATERIALIZATIONS (m AS (TABLE t))"))).to.include(
        "Materialization 'm': must specify at least one of DIMENSIONS or METRICS.",
      );
    });

    it("materialization names are unique", async () => {
      expect(
        await errorOf(
          runner,
          view("MATERIALIZATIONS (m AS (TABLE t, DIMENSIONS (region)), M AS (TABLE u, METRICS (revenue)))"),
        ),
      ).to.include("Duplicate materialization name 'M'");
    });
  });
});
