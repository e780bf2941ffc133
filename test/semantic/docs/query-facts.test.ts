/**
 * docs/how-to/query-facts.rst: facts as row-level columns, with dimensions, wildcards, the
 * exclusion with metrics, and the incompatible-paths rule judged by edge direction.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/query-facts", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, segment VARCHAR);
      INSERT INTO customers VALUES (1, 'retail'), (2, 'trade');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR);
      INSERT INTO orders VALUES (1, 1, 'East'), (2, 2, 'West');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, price DOUBLE, discount DOUBLE, tax_rate DOUBLE);
      INSERT INTO line_items VALUES (1, 1, 100, 0.1, 0.2), (2, 1, 50, 0, 0.2), (3, 2, 80, 0.5, 0.1);
      CREATE SEMANTIC VIEW analytics AS
      TABLES (li AS line_items PRIMARY KEY (id), o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, order_customer AS o(customer_id) REFERENCES c)
      FACTS (li.net_price AS li.price * (1 - li.discount), li.tax_amount AS li.net_price * li.tax_rate, PRIVATE li.raw AS li.price)
      DIMENSIONS (o.region AS o.region, c.segment AS c.segment)
      METRICS (li.total_revenue AS SUM(li.net_price));`);
  });
  after(() => db.close());

  it("facts are row-level: one row per line item, no aggregation", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('analytics', facts := ['net_price', 'tax_amount'])"),
    ).to.deep.equal([
      [40, 4],
      [50, 10],
      [90, 18],
    ]);
  });

  it("dimensions along the many-to-one chain appear as columns without grouping", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('analytics', dimensions := ['region', 'segment'], facts := ['net_price'])",
      ),
    ).to.deep.equal([
      ["East", "retail", 50],
      ["East", "retail", 90],
      ["West", "trade", 40],
    ]);
  });

  it("a wildcard selects the public facts of a table", async () => {
    const { columns } = await db.run("SELECT * FROM semantic_view('analytics', facts := ['li.*'])");
    expect(columns.map((c) => c.name)).to.deep.equal(["net_price", "tax_amount"]);
  });

  it("facts and metrics cannot be combined", async () => {
    const e = await db.error(
      "SELECT * FROM semantic_view('analytics', facts := ['net_price'], metrics := ['total_revenue'])",
    );
    expect(e.message).to.equal(
      "semantic view 'analytics': cannot combine facts and metrics in the same query. Use facts := [...] OR metrics := [...], not both.",
    );
  });

  it("a private fact cannot be queried", async () => {
    const e = await db.error("SELECT * FROM semantic_view('analytics', facts := ['raw'])");
    expect(e.message).to.contain("fact 'raw' is private and cannot be queried directly");
  });
});
