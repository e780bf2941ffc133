/**
 * docs/tutorials/building-a-model.rst: a three-table model whose metrics live on line_items (the
 * FK side of the base table orders), refactored into facts, then derived metrics on top.
 * Note: the page prints Bob's revenue as 178.00; its own data gives 30*1*0.8 + 80*2*0.95 = 176.00
 * (and a margin of 96/176), so the computed values are asserted.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

const TABLES = `TABLES (
    o  AS orders     PRIMARY KEY (id),
    c  AS customers  PRIMARY KEY (id),
    li AS line_items PRIMARY KEY (id)
)
RELATIONSHIPS (
    order_customer AS o(customer_id) REFERENCES c,
    order_items    AS li(order_id)   REFERENCES o
)`;
const DIMENSIONS = `DIMENSIONS (
    c.customer AS c.name,
    c.city     AS c.city,
    o.month    AS date_trunc('month', o.ordered_at)
)`;

describe("docs: tutorials/building-a-model", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, name VARCHAR, city VARCHAR);
      INSERT INTO customers VALUES (1, 'Alice', 'Portland'), (2, 'Bob', 'Seattle'), (3, 'Carol', 'Portland');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, ordered_at DATE);
      INSERT INTO orders VALUES (1, 1, '2024-01-15'), (2, 1, '2024-01-20'), (3, 2, '2024-02-10'), (4, 3, '2024-03-01');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, price DECIMAL(10,2), quantity INTEGER, discount DECIMAL(4,2), unit_cost DECIMAL(10,2));
      INSERT INTO line_items VALUES
          (1, 1, 25.00, 2, 0.00,  10.00),
          (2, 1, 40.00, 1, 0.10,  15.00),
          (3, 2, 50.00, 3, 0.00,  20.00),
          (4, 3, 30.00, 1, 0.20,  12.00),
          (5, 3, 80.00, 2, 0.05,  35.00),
          (6, 4, 60.00, 1, 0.00,  25.00);`);
  });
  after(() => db.close());

  /** Money compared as numbers with two decimals (the page prints DECIMALs that way). */
  const money = async (sql: string): Promise<unknown[][]> =>
    (await db.run(sql)).rows.map((r) => r.map((v) => (typeof v === "string" ? v : Math.round(Number(v) * 1e6) / 1e6)));

  const byCustomer = [
    ["Alice", 236, 95],
    ["Bob", 176, 82],
    ["Carol", 60, 25],
  ];

  it("the basic view: revenue and cost per customer through orders", async () => {
    await db.run(`CREATE SEMANTIC VIEW sales AS ${TABLES} ${DIMENSIONS}
      METRICS (li.revenue AS SUM(li.price * li.quantity * (1 - li.discount)), li.cost AS SUM(li.unit_cost * li.quantity))`);
    expect(
      await money(
        "SELECT * FROM semantic_view('sales', dimensions := ['customer'], metrics := ['revenue', 'cost']) ORDER BY revenue DESC",
      ),
    ).to.deep.equal(byCustomer);
  });

  it("facts extracted: identical results", async () => {
    await db.run(`CREATE OR REPLACE SEMANTIC VIEW sales AS ${TABLES}
      FACTS (li.net_total AS li.price * li.quantity * (1 - li.discount), li.line_cost AS li.unit_cost * li.quantity)
      ${DIMENSIONS}
      METRICS (li.revenue AS SUM(li.net_total), li.cost AS SUM(li.line_cost))`);
    expect(
      await money(
        "SELECT * FROM semantic_view('sales', dimensions := ['customer'], metrics := ['revenue', 'cost']) ORDER BY revenue DESC",
      ),
    ).to.deep.equal(byCustomer);
  });

  it("derived metrics by customer and by month", async () => {
    await db.run(`CREATE OR REPLACE SEMANTIC VIEW sales AS ${TABLES}
      FACTS (li.net_total AS li.price * li.quantity * (1 - li.discount), li.line_cost AS li.unit_cost * li.quantity)
      ${DIMENSIONS}
      METRICS (li.revenue AS SUM(li.net_total), li.cost AS SUM(li.line_cost), profit AS revenue - cost, margin AS profit / revenue * 100)`);
    expect(
      await money(
        "SELECT * FROM semantic_view('sales', dimensions := ['customer'], metrics := ['revenue', 'cost', 'profit', 'margin']) ORDER BY margin DESC",
      ),
    ).to.deep.equal([
      ["Alice", 236, 95, 141, 59.745763],
      ["Carol", 60, 25, 35, 58.333333],
      ["Bob", 176, 82, 94, 53.409091],
    ]);
    expect(
      await money(
        "SELECT month::DATE::VARCHAR, revenue, profit, margin FROM semantic_view('sales', dimensions := ['month'], metrics := ['revenue', 'profit', 'margin']) ORDER BY month",
      ),
    ).to.deep.equal([
      ["2024-01-01", 236, 141, 59.745763],
      ["2024-02-01", 176, 94, 53.409091],
      ["2024-03-01", 60, 35, 58.333333],
    ]);
  });

  it("explain_semantic_view() shows facts inlined, derived metrics expanded and only the needed joins", async () => {
    const explain = async (args: string): Promise<string> => {
      const lines = (await db.run(`SELECT * FROM explain_semantic_view('sales', ${args})`)).rows.map((r) =>
        String(r[0]),
      );
      return lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:")).join("\n");
    };
    const withCustomer = await explain("dimensions := ['customer'], metrics := ['revenue', 'profit']");
    expect(withCustomer).to.include("li.price * li.quantity * (1 - li.discount)").and.include("customers");
    expect(withCustomer).not.to.match(/\bnet_total\b/);
    expect(await explain("dimensions := ['month'], metrics := ['revenue', 'profit']")).not.to.include("customers");
  });
});
