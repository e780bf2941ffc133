/** docs/reference/show-columns-semantic-view.rst: public members, sorted by kind then name. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW COLUMNS IN SEMANTIC VIEW", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, quantity INTEGER, price DOUBLE)");
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW shop AS
      TABLES (o AS orders PRIMARY KEY (id))
      FACTS (o.raw_amount AS o.quantity * o.price COMMENT = 'Line total', PRIVATE o.hidden AS o.price)
      DIMENSIONS (o.region AS o.region)
      METRICS (
          o.revenue AS SUM(o.quantity * o.price),
          o.n AS COUNT(*),
          avg_order AS revenue / n,
          PRIVATE o.secret AS MAX(o.price)
      )`,
    );
  });
  after(() => runner.close());

  it("lists the public members sorted by kind, then name", async () => {
    const r = await runStatement(runner, "SHOW COLUMNS IN SEMANTIC VIEW shop");
    expect(r.columns).to.deep.equal([
      "database_name",
      "schema_name",
      "semantic_view_name",
      "column_name",
      "data_type",
      "kind",
      "expression",
      "comment",
    ]);
    expect(r.rows.map((row) => [row[3], row[5], row[6], row[7]])).to.deep.equal([
      ["avg_order", "DERIVED_METRIC", "revenue / n", ""],
      ["region", "DIMENSION", "o.region", ""],
      ["raw_amount", "FACT", "o.quantity * o.price", "Line total"],
      ["n", "METRIC", "COUNT(*)", ""],
      ["revenue", "METRIC", "SUM(o.quantity * o.price)", ""],
    ]);
  });

  it("a missing view is an error", async () => {
    expect(await errorOf(runner, "SHOW COLUMNS IN SEMANTIC VIEW nonexistent")).to.include("'nonexistent'");
  });
});
