/**
 * docs/tutorials/multi-table.rst: a three-table star; only the tables a query needs are joined;
 * computed dimensions keep their expression's type. Expected rows are the page's output tables.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: tutorials/multi-table", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, name VARCHAR, city VARCHAR);
      INSERT INTO customers VALUES (1, 'Alice', 'Portland'), (2, 'Bob', 'Seattle'), (3, 'Carol', 'Portland');
      CREATE TABLE products (id INTEGER, name VARCHAR, category VARCHAR);
      INSERT INTO products VALUES (10, 'Widget', 'Hardware'), (20, 'Gadget', 'Hardware'), (30, 'Service', 'Software');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, product_id INTEGER, amount DECIMAL(10,2), ordered_at DATE);
      INSERT INTO orders VALUES
          (1, 1, 10, 25.00,  '2024-01-15'),
          (2, 1, 20, 50.00,  '2024-01-20'),
          (3, 2, 10, 25.00,  '2024-02-10'),
          (4, 2, 30, 100.00, '2024-02-14'),
          (5, 3, 20, 50.00,  '2024-03-01');
      CREATE SEMANTIC VIEW shop AS
      TABLES (
          o AS orders    PRIMARY KEY (id),
          c AS customers PRIMARY KEY (id),
          p AS products  PRIMARY KEY (id)
      )
      RELATIONSHIPS (
          order_customer AS o(customer_id) REFERENCES c,
          order_product  AS o(product_id)  REFERENCES p
      )
      DIMENSIONS (
          c.customer AS c.name,
          c.city     AS c.city,
          p.product  AS p.name,
          p.category AS p.category,
          o.month    AS date_trunc('month', o.ordered_at)
      )
      METRICS (
          o.revenue     AS SUM(o.amount),
          o.order_count AS COUNT(*)
      );`);
  });
  after(() => db.close());

  /** The page prints results as text; DECIMAL and dates compared that way. */
  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("revenue by customer joins customers only", async () => {
    const sql =
      "SELECT * FROM semantic_view('shop', dimensions := ['customer'], metrics := ['revenue', 'order_count']) ORDER BY revenue DESC";
    expect(await text(sql)).to.deep.equal([
      ["Bob", "125.00", "2"],
      ["Alice", "75.00", "2"],
      ["Carol", "50.00", "1"],
    ]);
    expect(await db.types(sql)).to.deep.equal({ customer: "VARCHAR", revenue: "DECIMAL(38,2)", order_count: "BIGINT" });
  });

  it("dimensions from both dimension tables", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('shop', dimensions := ['customer', 'product'], metrics := ['revenue']) ORDER BY customer, product",
      ),
    ).to.deep.equal([
      ["Alice", "Gadget", "50.00"],
      ["Alice", "Widget", "25.00"],
      ["Bob", "Service", "100.00"],
      ["Bob", "Widget", "25.00"],
      ["Carol", "Gadget", "50.00"],
    ]);
  });

  it("a computed dimension keeps its expression's type", async () => {
    const sql =
      "SELECT * FROM semantic_view('shop', dimensions := ['month'], metrics := ['revenue', 'order_count']) ORDER BY month";
    expect(await text(`SELECT month::DATE AS month, revenue, order_count FROM (${sql})`)).to.deep.equal([
      ["2024-01-01", "75.00", "2"],
      ["2024-02-01", "125.00", "2"],
      ["2024-03-01", "50.00", "1"],
    ]);
    const native = await db.session.query("SELECT date_trunc('month', ordered_at) AS month FROM orders LIMIT 0");
    expect((await db.types(sql))["month"]).to.equal(native.columns[0]!.type);
  });

  it("CREATE OR REPLACE adds members that are queryable at once", async () => {
    await db.run(`CREATE OR REPLACE SEMANTIC VIEW shop AS
      TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), p AS products PRIMARY KEY (id))
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, order_product AS o(product_id) REFERENCES p)
      DIMENSIONS (c.customer AS c.name, c.city AS c.city, p.product AS p.name, p.category AS p.category,
                  o.month AS date_trunc('month', o.ordered_at), o.year AS date_trunc('year', o.ordered_at))
      METRICS (o.revenue AS SUM(o.amount), o.order_count AS COUNT(*), o.avg_order AS AVG(o.amount))`);
    expect(
      await text("SELECT * FROM semantic_view('shop', dimensions := ['city'], metrics := ['avg_order']) ORDER BY city"),
    ).to.deep.equal([
      ["Portland", "41.666666666666664"],
      ["Seattle", "62.5"],
    ]);
    expect(
      await db.types("SELECT * FROM semantic_view('shop', dimensions := ['city'], metrics := ['avg_order'])"),
    ).to.deep.equal({ city: "VARCHAR", avg_order: "DOUBLE" });
  });
});
