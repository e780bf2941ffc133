/** docs/reference/show-semantic-views.rst: LIKE, STARTS WITH, LIMIT, IN scopes and the TERSE form. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW SEMANTIC VIEWS", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR)");
    await runner.run("CREATE TABLE line_items (id INTEGER, qty INTEGER)");
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW order_metrics AS TABLES (o AS orders) DIMENSIONS (o.region AS o.region)",
    );
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW sales_analytics COMMENT = 'lines' AS TABLES (li AS line_items) METRICS (li.qty AS SUM(li.qty))",
    );
    await runner.run("CREATE SCHEMA archive");
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW archive.sales_2020 AS TABLES (o AS main.orders) DIMENSIONS (o.region AS o.region)",
    );
  });
  after(() => runner.close());

  const names = async (sql: string) => (await runStatement(runner, sql)).rows.map((r) => `${r[4]}.${r[1]}`);

  it("lists every view; the TERSE form drops the comment", async () => {
    const full = await runStatement(runner, "SHOW SEMANTIC VIEWS");
    expect(full.columns).to.deep.equal(["created_on", "name", "kind", "database_name", "schema_name", "comment"]);
    // Sorted by name, as the extension lists them.
    expect(full.rows.map((r) => r.slice(1))).to.deep.equal([
      ["order_metrics", "SEMANTIC_VIEW", "memory", "main", ""],
      ["sales_2020", "SEMANTIC_VIEW", "memory", "archive", ""],
      ["sales_analytics", "SEMANTIC_VIEW", "memory", "main", "lines"],
    ]);
    const terse = await runStatement(runner, "SHOW TERSE SEMANTIC VIEWS");
    expect(terse.columns).to.deep.equal(["created_on", "name", "kind", "database_name", "schema_name"]);
    expect(terse.rows).to.deep.equal(full.rows.map((r) => r.slice(0, 5)));
  });

  it("LIKE is case-insensitive, STARTS WITH case-sensitive, LIMIT caps, all combined in order", async () => {
    expect(await names("SHOW SEMANTIC VIEWS LIKE '%ORDER%'")).to.deep.equal(["main.order_metrics"]);
    expect(await names("SHOW SEMANTIC VIEWS STARTS WITH 'sales'")).to.deep.equal([
      "archive.sales_2020",
      "main.sales_analytics",
    ]);
    expect(await names("SHOW SEMANTIC VIEWS STARTS WITH 'Sales'")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC VIEWS LIMIT 1")).to.have.length(1);
    expect(await names("SHOW SEMANTIC VIEWS LIKE '%a%' STARTS WITH 'sales' LIMIT 10")).to.deep.equal([
      "archive.sales_2020",
      "main.sales_analytics",
    ]);
    expect(await names("show semantic views like '%order%'")).to.deep.equal(["main.order_metrics"]);
  });

  it("IN SCHEMA / IN DATABASE / IN ACCOUNT scopes (a bare scope means the current one)", async () => {
    expect(await names("SHOW SEMANTIC VIEWS IN SCHEMA archive")).to.deep.equal(["archive.sales_2020"]);
    expect(await names("SHOW SEMANTIC VIEWS IN SCHEMA memory.archive")).to.deep.equal(["archive.sales_2020"]);
    expect(await names("SHOW SEMANTIC VIEWS IN SCHEMA")).to.deep.equal(["main.order_metrics", "main.sales_analytics"]);
    expect(await names("SHOW TERSE SEMANTIC VIEWS IN DATABASE")).to.have.length(3);
    expect(await names("SHOW SEMANTIC VIEWS IN DATABASE other")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC VIEWS IN ACCOUNT STARTS WITH 'order'")).to.deep.equal(["main.order_metrics"]);
  });

  it("clauses out of order are a syntax error", async () => {
    expect(await errorOf(runner, "SHOW SEMANTIC VIEWS LIMIT 1 LIKE '%a%'")).to.include("LIKE must come before LIMIT");
    expect(await errorOf(runner, "SHOW SEMANTIC VIEWS STARTS WITH 's' LIKE '%a%'")).to.include(
      "LIKE must come before STARTS WITH",
    );
  });
});
