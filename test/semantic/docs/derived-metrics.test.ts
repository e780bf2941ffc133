/**
 * docs/how-to/derived-metrics.rst: derived metrics over base metrics (the base table on the FK
 * side), stacked derived metrics, facts under them, and the define-time rules.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/derived-metrics", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    // Data chosen to give the page's output table.
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR);
      INSERT INTO orders VALUES (1, 'East'), (2, 'West');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, extended_price DECIMAL(10,2), unit_cost DECIMAL(10,2), discount DECIMAL(4,2));
      INSERT INTO line_items VALUES (1, 1, 100.00, 40.00, 0.10), (2, 1, 200.00, 90.00, 0.00), (3, 2, 150.00, 60.00, 0.20);
      CREATE SEMANTIC VIEW sales AS
      TABLES (
          li AS line_items PRIMARY KEY (id),
          o  AS orders      PRIMARY KEY (id)
      )
      RELATIONSHIPS (
          li_to_order AS li(order_id) REFERENCES o
      )
      DIMENSIONS (
          o.region AS o.region
      )
      METRICS (
          li.revenue AS SUM(li.extended_price),
          li.cost    AS SUM(li.unit_cost),
          profit     AS revenue - cost,
          margin     AS profit / revenue * 100
      );`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("queries base and derived metrics together", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['revenue', 'cost', 'profit']) ORDER BY region",
      ),
    ).to.deep.equal([
      ["East", "300.00", "130.00", "170.00"],
      ["West", "150.00", "60.00", "90.00"],
    ]);
  });

  it("a stacked derived metric resolves its whole chain", async () => {
    const rows = await db.rows(
      "SELECT region, round(margin, 4) FROM semantic_view('sales', dimensions := ['region'], metrics := ['margin']) ORDER BY region",
    );
    expect(rows.map((r) => [r[0], Number(r[1])])).to.deep.equal([
      ["East", 56.6667],
      ["West", 60],
    ]);
  });

  it("facts under base metrics under derived metrics", async () => {
    await db.run(`CREATE SEMANTIC VIEW sales_net AS
      TABLES (li AS line_items PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
      FACTS (li.net_price AS li.extended_price * (1 - li.discount))
      DIMENSIONS (o.region AS o.region)
      METRICS (li.revenue AS SUM(li.net_price), li.cost AS SUM(li.unit_cost), profit AS revenue - cost, margin AS profit / revenue * 100)`);
    expect(
      await text(
        "SELECT region, revenue, profit FROM semantic_view('sales_net', dimensions := ['region'], metrics := ['revenue', 'profit']) ORDER BY region",
      ),
    ).to.deep.equal([
      ["East", "290.0000", "160.0000"],
      ["West", "120.0000", "60.0000"],
    ]);
  });

  it("rejects an aggregate in a derived metric and cycles at define time", async () => {
    expect(
      (
        await db.error(
          "CREATE SEMANTIC VIEW bad AS TABLES (li AS line_items) METRICS (li.revenue AS SUM(li.extended_price), profit AS SUM(revenue))",
        )
      ).message,
    ).to.contain("derived metric 'profit' must not contain aggregate function 'sum'");
    expect(
      (
        await db.error(
          "CREATE SEMANTIC VIEW bad AS TABLES (li AS line_items) METRICS (li.revenue AS SUM(li.extended_price), a AS b + 1, b AS a + 1)",
        )
      ).message,
    ).to.contain("Circular dependency detected in derived metrics: a, b");
  });

  it("an unknown bare name is rejected at define time, naming the closest metric", async () => {
    // The page's troubleshooting note says such a name is taken for a column; the extension's
    // validator rejects it (and a qualified alias.column stays a raw column), which is followed here.
    const e = await db.error(
      "CREATE SEMANTIC VIEW typo AS TABLES (li AS line_items) DIMENSIONS (li.id AS li.id) METRICS (li.revenue AS SUM(li.extended_price), share AS revenu / 2)",
    );
    expect(e.message).to.contain(
      "unknown metric 'revenu' referenced in derived metric 'share'; did you mean 'revenue'?. Available metrics: [revenue, share]",
    );
  });
});
