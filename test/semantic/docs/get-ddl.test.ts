/** docs/reference/get-ddl.rst: the documented layout, re-executable output, every clause, errors. */
import { expect } from "chai";
import { loadDefinition } from "../../../runtime/semantic/catalog.js";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/GET_DDL", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR, amount INTEGER)");
    await runner.run("CREATE TABLE customers (id INTEGER, name VARCHAR)");
  });
  after(() => runner.close());

  const ddl = async (name: string): Promise<string> =>
    String((await runStatement(runner, `SELECT GET_DDL('SEMANTIC_VIEW', '${name}')`)).rows[0]![0]);

  it("renders the documented sample exactly", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW sales AS
        TABLES (o AS orders PRIMARY KEY (id) COMMENT = 'Order transactions')
        DIMENSIONS (o.region AS o.region COMMENT = 'Sales region')
        METRICS (o.revenue AS SUM(o.amount) COMMENT = 'Total revenue')`,
    );
    expect(await ddl("sales")).to.equal(`CREATE OR REPLACE SEMANTIC VIEW sales AS
TABLES (
    o AS orders PRIMARY KEY (id) COMMENT = 'Order transactions'
)
DIMENSIONS (
    o.region AS o.region COMMENT = 'Sales region'
)
METRICS (
    o.revenue AS SUM(o.amount) COMMENT = 'Total revenue'
)`);
  });

  it("carries every clause, including MATERIALIZATIONS, and re-creates the same definition", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW everything COMMENT = 'all clauses' AS
        TABLES (o AS orders PRIMARY KEY (id) WITH SYNONYMS ('sales'), c AS customers PRIMARY KEY (id) UNIQUE (name))
        RELATIONSHIPS (placed_by AS o(customer_id) REFERENCES c)
        FACTS (PRIVATE o.amt AS o.amount COMMENT = 'raw')
        DIMENSIONS (c.customer AS c.name LABELS = (FILTER), o.region AS o.region)
        METRICS (o.revenue USING (placed_by) AS SUM(o.amt), o.n AS COUNT(*), PRIVATE o.hidden AS MAX(o.amt), avg_order AS revenue / n)
        MATERIALIZATIONS (by_region AS (TABLE main.region_totals, DIMENSIONS (region), METRICS (revenue, n)), totals AS (TABLE t, METRICS (n)))`,
    );
    const text = await ddl("everything");
    expect(text).to.include(
      "\nMATERIALIZATIONS (\n    by_region AS (TABLE main.region_totals, DIMENSIONS (region), METRICS (revenue, n)),\n    totals AS (TABLE t, METRICS (n))\n)",
    );
    const before = await loadDefinition(runner.session, "everything");
    await runStatement(runner, "DROP SEMANTIC VIEW everything");
    await runStatement(runner, text);
    const after = await loadDefinition(runner.session, "everything");
    expect({ ...after, createdOn: "" }).to.deep.equal({ ...before, createdOn: "" });
  });

  it("rejects other object types and missing views", async () => {
    expect(await errorOf(runner, "SELECT GET_DDL('TABLE', 'orders')")).to.equal(
      "GET_DDL: unsupported object type 'TABLE'. Only 'SEMANTIC_VIEW' is supported.",
    );
    expect(await errorOf(runner, "SELECT GET_DDL('SEMANTIC_VIEW', 'nonexistent')")).to.equal(
      "semantic view 'nonexistent' does not exist",
    );
    expect(await ddl("sales")).to.equal(
      String((await runStatement(runner, "SELECT get_ddl('semantic_view', 'sales')")).rows[0]![0]),
    );
  });
});
