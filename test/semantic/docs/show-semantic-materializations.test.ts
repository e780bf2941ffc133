/** docs/reference/show-semantic-materializations.rst: 7 VARCHAR columns, sorting, LIKE, errors. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

const COLUMNS = ["database_name", "schema_name", "semantic_view_name", "name", "table", "dimensions", "metrics"];

describe("docs/reference/SHOW SEMANTIC MATERIALIZATIONS", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER)");
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW order_metrics AS
      TABLES (
          o AS orders PRIMARY KEY (id)
      )
      DIMENSIONS (
          o.region AS o.region
      )
      METRICS (
          o.revenue     AS SUM(o.amount),
          o.order_count AS COUNT(*)
      )
      MATERIALIZATIONS (
          region_agg AS (
              TABLE revenue_by_region,
              DIMENSIONS (region),
              METRICS (revenue, order_count)
          )
      )`,
    );
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW a_view AS TABLES (o AS orders) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount))
       MATERIALIZATIONS (z_totals AS (TABLE totals, METRICS (revenue)), b_region AS (TABLE by_region, DIMENSIONS (region)))`,
    );
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW simple_view AS TABLES (o AS orders) DIMENSIONS (o.region AS o.region)",
    );
  });
  after(() => runner.close());

  it("lists the materializations of one view", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS IN order_metrics");
    expect(r.columns).to.deep.equal(COLUMNS);
    expect(r.types).to.deep.equal(COLUMNS.map(() => "VARCHAR"));
    expect(r.rows).to.deep.equal([
      ["memory", "main", "order_metrics", "region_agg", "revenue_by_region", '["region"]', '["revenue","order_count"]'],
    ]);
  });

  it("lists every view's materializations sorted by view name, then name", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS");
    expect(r.rows.map((row) => `${row[2]}.${row[3]}`)).to.deep.equal([
      "a_view.b_region",
      "a_view.z_totals",
      "order_metrics.region_agg",
    ]);
    const fn = await runStatement(runner, "SELECT semantic_view_name, name FROM show_semantic_materializations_all()");
    expect(fn.rows).to.deep.equal(r.rows.map((row) => [row[2], row[3]]));
  });

  it("filters by a case-insensitive LIKE pattern (before IN, or at the end)", async () => {
    expect(
      (await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS LIKE 'REGION%' IN order_metrics")).rows.map(
        (r) => r[3],
      ),
    ).to.deep.equal(["region_agg"]);
    expect(
      (await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS LIKE '%total%'")).rows.map((r) => r[3]),
    ).to.deep.equal(["z_totals"]);
  });

  it("a view without materializations gives an empty 7-column result", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC MATERIALIZATIONS IN simple_view");
    expect(r).to.deep.include({ columns: COLUMNS, rows: [] });
  });

  it("a missing view is an error", async () => {
    expect(await errorOf(runner, "SHOW SEMANTIC MATERIALIZATIONS IN nonexistent_view")).to.equal(
      "semantic view 'nonexistent_view' does not exist",
    );
  });
});
