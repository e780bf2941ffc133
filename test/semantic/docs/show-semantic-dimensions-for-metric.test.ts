/** docs/reference/show-semantic-dimensions-for-metric.rst: fan-trap-safe dimensions per metric. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW SEMANTIC DIMENSIONS ... FOR METRIC", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE sales (id INTEGER, product VARCHAR, region VARCHAR, amount INTEGER)");
    await runner.run("CREATE TABLE customers (id INTEGER, name VARCHAR, country VARCHAR)");
    await runner.run("CREATE TABLE orders (id INTEGER, customer_id INTEGER, total INTEGER)");
    await runner.run("CREATE TABLE line_items (id INTEGER, order_id INTEGER, qty INTEGER, price INTEGER)");
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW simple_sales AS
      TABLES (s AS sales PRIMARY KEY (id))
      DIMENSIONS (s.product AS s.product, s.region AS s.region)
      METRICS (s.total AS SUM(s.amount))`,
    );
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW star_sv AS
      TABLES (
          c  AS customers  PRIMARY KEY (id),
          o  AS orders     PRIMARY KEY (id),
          li AS line_items PRIMARY KEY (id)
      )
      RELATIONSHIPS (
          order_customer AS o(customer_id) REFERENCES c,
          item_order     AS li(order_id)   REFERENCES o
      )
      DIMENSIONS (
          c.customer_name    AS c.name,
          c.customer_country AS c.country,
          li.item_qty        AS li.qty
      )
      METRICS (
          o.order_total    AS SUM(o.total),
          li.line_item_sum AS SUM(li.price * li.qty)
      )`,
    );
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW derived_sv AS
      TABLES (c AS customers PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
      DIMENSIONS (c.customer_name AS c.name)
      METRICS (o.order_total AS SUM(o.total), double_total AS order_total * 2)`,
    );
  });
  after(() => runner.close());

  const rows = async (sql: string) => (await runStatement(runner, sql)).rows;

  it("single table: every dimension, with the 4 documented columns", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC DIMENSIONS IN simple_sales FOR METRIC total");
    expect(r.columns).to.deep.equal(["table_name", "name", "data_type", "required"]);
    expect(r.types).to.deep.equal(["VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN"]);
    expect(r.rows).to.deep.equal([
      ["sales", "product", "", false],
      ["sales", "region", "", false],
    ]);
  });

  it("fan-trap filtering follows edge direction (the star_sv example)", async () => {
    expect(await rows("SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC order_total")).to.deep.equal([
      ["customers", "customer_country", "", false],
      ["customers", "customer_name", "", false],
    ]);
    expect(await rows("SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC line_item_sum")).to.deep.equal([
      ["customers", "customer_country", "", false],
      ["customers", "customer_name", "", false],
      ["line_items", "item_qty", "", false],
    ]);
  });

  it("derived metrics inherit their base metrics' tables", async () => {
    expect(await rows("SHOW SEMANTIC DIMENSIONS IN derived_sv FOR METRIC double_total")).to.deep.equal([
      ["customers", "customer_name", "", false],
    ]);
  });

  it("LIKE, STARTS WITH and LIMIT apply after the fan-trap filter", async () => {
    expect(await rows("SHOW SEMANTIC DIMENSIONS LIKE '%COUNTRY%' IN star_sv FOR METRIC line_item_sum")).to.deep.equal([
      ["customers", "customer_country", "", false],
    ]);
    expect(await rows("SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC line_item_sum STARTS WITH 'item'")).to.deep.equal(
      [["line_items", "item_qty", "", false]],
    );
    expect(await rows("SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC order_total LIMIT 1")).to.deep.equal([
      ["customers", "customer_country", "", false],
    ]);
    expect(await rows("SELECT name FROM show_semantic_dimensions_for_metric('star_sv', 'ORDER_TOTAL')")).to.deep.equal([
      ["customer_country"],
      ["customer_name"],
    ]);
  });

  it("errors: unknown metric (with a suggestion), missing view, clause order", async () => {
    expect(await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC nonexistent")).to.equal(
      "metric 'nonexistent' not found in semantic view 'star_sv'.",
    );
    expect(await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN star_sv FOR METRIC order_totl")).to.equal(
      "metric 'order_totl' not found in semantic view 'star_sv'. Did you mean 'order_total'?",
    );
    expect(await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN nonexistent_sv FOR METRIC total")).to.equal(
      "semantic view 'nonexistent_sv' does not exist",
    );
    expect(
      await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN star_sv STARTS WITH 'c' FOR METRIC order_total"),
    ).to.include("FOR METRIC must come before STARTS WITH");
  });
});
