/**
 * docs/how-to/wildcard-selection.rst: `alias.*` in each list, PRIVATE items skipped, explicit and
 * wildcard items de-duplicated, bare `*` and unknown aliases refused, empty expansions.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/wildcard-selection", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR, status VARCHAR, amount DOUBLE, cost DOUBLE);
      INSERT INTO orders VALUES (1, 'East', 'open', 10, 4), (2, 'West', 'done', 20, 5);
      CREATE SEMANTIC VIEW sales AS
      TABLES (o AS orders PRIMARY KEY (id))
      FACTS (o.margin AS o.amount - o.cost, PRIVATE o.raw_cost AS o.cost)
      DIMENSIONS (o.region AS o.region, o.status AS o.status)
      METRICS (
          o.revenue AS SUM(o.amount),
          PRIVATE o.internal_cost AS SUM(o.cost),
          profit AS revenue - internal_cost
      );`);
  });
  after(() => db.close());

  const columns = async (sql: string): Promise<string[]> => (await db.run(sql)).columns.map((c) => c.name);

  it("o.* expands to the public metrics of o only", async () => {
    expect(
      await columns("SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['o.*'])"),
    ).to.deep.equal(["region", "revenue"]);
  });

  it("an item listed explicitly and by wildcard appears once", async () => {
    expect(await columns("SELECT * FROM semantic_view('sales', dimensions := ['region', 'o.*'])")).to.deep.equal([
      "region",
      "status",
    ]);
  });

  it("facts take wildcards too, private facts skipped", async () => {
    expect(await columns("SELECT * FROM semantic_view('sales', facts := ['o.*'])")).to.deep.equal(["margin"]);
  });

  it("a bare * and an unknown alias are refused", async () => {
    expect((await db.error("SELECT * FROM semantic_view('sales', dimensions := ['*'])")).message).to.contain(
      "unqualified wildcard '*' is not supported. Use table_alias.* to select all items for a specific table.",
    );
    expect((await db.error("SELECT * FROM semantic_view('sales', metrics := ['x.*'])")).message).to.contain(
      "unknown table alias 'x' in wildcard 'x.*'. Available aliases: [o]",
    );
  });

  it("an expansion to nothing is an empty request", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW hidden AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (PRIVATE o.secret AS SUM(o.cost), shown AS secret * 2)",
    );
    expect((await db.error("SELECT * FROM semantic_view('hidden', metrics := ['o.*'])")).message).to.contain(
      "semantic view 'hidden': specify at least dimensions := [...]",
    );
  });
});
