/** docs/reference/read-yaml-from-semantic-view.rst: the documented export, qualified names, errors. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/READ_YAML_FROM_SEMANTIC_VIEW", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER)");
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW order_metrics AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount))",
    );
  });
  after(() => runner.close());

  const exported = async (name: string): Promise<unknown> =>
    (await runStatement(runner, `SELECT READ_YAML_FROM_SEMANTIC_VIEW('${name}')`)).rows[0]![0];

  it("exports the documented sample, without created_on / database_name / schema_name", async () => {
    expect(await exported("order_metrics")).to.equal(
      "tables:\n  - alias: o\n    table: orders\n    pk_columns:\n      - id\ndimensions:\n  - name: region\n    expr: o.region\n    source_table: o\nmetrics:\n  - name: revenue\n    expr: SUM(o.amount)\n    source_table: o\n",
    );
  });

  it("accepts schema- and catalog-qualified names", async () => {
    const plain = await exported("order_metrics");
    expect(await exported("main.order_metrics")).to.equal(plain);
    expect(await exported("memory.main.order_metrics")).to.equal(plain);
  });

  it("the export re-creates the view through FROM YAML", async () => {
    await runStatement(runner, `CREATE SEMANTIC VIEW copy FROM YAML $$${String(await exported("order_metrics"))}$$`);
    expect(await exported("copy")).to.equal(await exported("order_metrics"));
  });

  it("a missing view is an error", async () => {
    expect(await errorOf(runner, "SELECT READ_YAML_FROM_SEMANTIC_VIEW('nonexistent')")).to.equal(
      "semantic view 'nonexistent' does not exist",
    );
  });
});
