/**
 * docs/tutorials/building-a-model.rst: facts, stacked derived metrics, and the explain_semantic_view()
 * inspection step (fact inlining, derived-metric expansion, selective joining).
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

const SCHEMA = `
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
    (6, 4, 60.00, 1, 0.00,  25.00);
CREATE SEMANTIC VIEW sales AS
TABLES (
    o  AS orders     PRIMARY KEY (id),
    c  AS customers  PRIMARY KEY (id),
    li AS line_items PRIMARY KEY (id)
)
RELATIONSHIPS (
    order_customer AS o(customer_id) REFERENCES c,
    order_items    AS li(order_id)   REFERENCES o
)
FACTS (
    li.net_total AS li.price * li.quantity * (1 - li.discount),
    li.line_cost AS li.unit_cost * li.quantity
)
DIMENSIONS (
    c.customer AS c.name,
    c.city     AS c.city,
    o.month    AS date_trunc('month', o.ordered_at)
)
METRICS (
    li.revenue AS SUM(li.net_total),
    li.cost    AS SUM(li.line_cost),
    profit     AS revenue - cost,
    margin     AS profit / revenue * 100
);`;

describe("docs/tutorials/building-a-model", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run(SCHEMA);
  });
  after(() => runner.close());

  it("the complete model: revenue, cost, profit and margin per customer", async () => {
    const { rows } = await runner.run(
      "SELECT customer, revenue::VARCHAR, cost::VARCHAR, profit::VARCHAR, round(margin, 2)::VARCHAR FROM semantic_view('sales', dimensions := ['customer'], metrics := ['revenue', 'cost', 'profit', 'margin']) ORDER BY margin DESC",
    );
    // The page prints Bob's revenue as 178.00, but its own rows give 30×1×0.80 + 80×2×0.95 = 176.00
    // (profit 94.00, margin 53.41); Alice's and Carol's rows match the page.
    expect(rows).to.deep.equal([
      ["Alice", "236.0000", "95.00", "141.0000", "59.75"],
      ["Carol", "60.0000", "25.00", "35.0000", "58.33"],
      ["Bob", "176.0000", "82.00", "94.0000", "53.41"],
    ]);
  });

  it("explain_semantic_view() shows facts inlined, derived metrics expanded and only the needed joins", async () => {
    const explain = async (args: string): Promise<string> => {
      const { rows } = await runner.run(`SELECT * FROM explain_semantic_view('sales', ${args})`);
      const lines = rows.map((r) => String(r[0]));
      return lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:")).join("\n");
    };
    const withCustomer = await explain("dimensions := ['customer'], metrics := ['revenue', 'profit']");
    expect(withCustomer).to.include("li.price * li.quantity * (1 - li.discount)");
    expect(withCustomer).to.include("customers");
    expect(withCustomer).not.to.match(/\bnet_total\b/);
    const withoutCustomer = await explain("dimensions := ['month'], metrics := ['revenue', 'profit']");
    expect(withoutCustomer).not.to.include("customers");
  });
});
