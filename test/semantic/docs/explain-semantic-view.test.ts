/**
 * docs/reference/explain-semantic-view-function.rst: same parameters as semantic_view(), one
 * VARCHAR column `explain_output`, three sections (header with the routing decision, expanded SQL,
 * DuckDB plan), and the same errors semantic_view() raises.
 */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/explain_semantic_view()", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE customers (id INTEGER, name VARCHAR)");
    await runner.run(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount INTEGER, price DOUBLE, discount DOUBLE, tax_rate DOUBLE, ordered_at DATE)",
    );
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW analytics AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
        FACTS (o.net_price AS o.price * (1 - o.discount), o.tax_amount AS o.net_price * o.tax_rate)
        DIMENSIONS (c.customer_name AS c.name, o.ordered_at AS o.ordered_at)
        METRICS (o.revenue AS SUM(o.amount))`,
    );
  });
  after(() => runner.close());

  const explain = async (args: string): Promise<string[]> => {
    const r = await runStatement(runner, `SELECT * FROM explain_semantic_view('analytics', ${args})`);
    expect(r.columns).to.deep.equal(["explain_output"]);
    expect(r.types).to.deep.equal(["VARCHAR"]);
    return r.rows.map((row) => String(row[0]));
  };

  it("standard expansion: header, expanded SQL with the join and GROUP BY, DuckDB plan", async () => {
    const lines = await explain("dimensions := ['customer_name'], metrics := ['revenue']");
    expect(lines.slice(0, 6)).to.deep.equal([
      "-- Semantic View: analytics",
      "-- Dimensions: customer_name",
      "-- Metrics: revenue",
      "-- Materialization: none",
      "",
      "-- Expanded SQL:",
    ]);
    const planAt = lines.indexOf("-- DuckDB Plan:");
    expect(planAt).to.be.greaterThan(6);
    expect(lines[planAt - 1]).to.equal("");
    const sql = lines.slice(6, planAt - 1).join("\n");
    expect(sql)
      .to.match(/LEFT JOIN/i)
      .and.match(/GROUP BY/i)
      .and.include("customers")
      .and.include("orders");
    const plan = lines.slice(planAt + 1).join("\n");
    expect(plan).to.include("HASH_GROUP_BY");
  });

  it("fact queries list the facts and show chained facts inlined", async () => {
    const lines = await explain("facts := ['net_price', 'tax_amount']");
    expect(lines.slice(0, 5)).to.deep.equal([
      "-- Semantic View: analytics",
      "-- Dimensions: ",
      "-- Metrics: ",
      "-- Facts: net_price, tax_amount",
      "-- Materialization: none",
    ]);
    const sql = lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:")).join("\n");
    expect(sql).to.include("tax_rate").and.include("discount"); // tax_amount inlined through net_price
    expect(sql).not.to.match(/GROUP BY/i);
  });

  it("where_clause lands before the GROUP BY", async () => {
    const lines = await explain(
      "dimensions := ['customer_name'], metrics := ['revenue'], where_clause := 'ordered_at >= DATE ''2024-01-01'''",
    );
    const sql = lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:")).join("\n");
    const where = sql.search(/WHERE/i);
    expect(where).to.be.greaterThan(-1);
    expect(where).to.be.lessThan(sql.search(/GROUP BY/i));
    expect(sql).to.include("2024-01-01");
  });

  it("wildcards are expanded in the header", async () => {
    const lines = await explain("dimensions := ['c.*'], metrics := ['o.*']");
    expect(lines.slice(1, 3)).to.deep.equal(["-- Dimensions: customer_name", "-- Metrics: revenue"]);
  });

  it("reports the errors semantic_view() reports", async () => {
    expect(
      await errorOf(
        runner,
        "SELECT * FROM explain_semantic_view('analytics', facts := ['net_price'], metrics := ['revenue'])",
      ),
    ).to.include("cannot combine facts and metrics");
    expect(
      await errorOf(runner, "SELECT * FROM explain_semantic_view('analytics', where_clause := 'true')"),
    ).to.include("specify at least");
    expect(await errorOf(runner, "SELECT * FROM explain_semantic_view('nope', metrics := ['revenue'])")).to.include(
      "semantic view 'nope' does not exist",
    );
  });

  it("composes with plain SQL like any table function", async () => {
    const r = await runStatement(
      runner,
      "SELECT count(*) AS n FROM explain_semantic_view('analytics', dimensions := ['customer_name']) e WHERE explain_output LIKE '-- %'",
    );
    expect(Number(r.rows[0]![0])).to.equal(6); // 4 header lines (no Facts line), Expanded SQL, DuckDB Plan
  });
});
