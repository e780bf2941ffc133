/**
 * docs/reference/drop-semantic-view.rst: DROP removes the definition (an error when it does not exist),
 * IF EXISTS is a silent no-op, and DROP joins the surrounding transaction (ROLLBACK restores the view).
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/drop-semantic-view", () => {
  let db: DocsRunner;

  beforeEach(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, amount INTEGER);
      INSERT INTO orders VALUES (1, 10), (2, 5);
      CREATE SEMANTIC VIEW order_metrics AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.id AS o.id) METRICS (o.total AS SUM(o.amount));`);
  });
  afterEach(() => db.close());

  const names = async () => (await db.run("SELECT name FROM list_terse_semantic_views()")).rows;

  it("drops an existing view; querying it then fails", async () => {
    await db.run("DROP SEMANTIC VIEW order_metrics");
    expect(await names()).to.deep.equal([]);
    expect((await db.error("SELECT * FROM semantic_view('order_metrics', metrics := ['total'])")).message).to.contain(
      "'order_metrics' not found",
    );
  });

  it("a missing view is an error; IF EXISTS makes it a silent no-op", async () => {
    await db.run("DROP SEMANTIC VIEW order_metrics");
    expect((await db.error("DROP SEMANTIC VIEW order_metrics")).message).to.equal(
      "semantic view 'order_metrics' does not exist",
    );
    await db.run("DROP SEMANTIC VIEW IF EXISTS order_metrics");
    expect(await names()).to.deep.equal([]);
  });

  it("BEGIN ... DROP ... ROLLBACK restores the view", async () => {
    await db.run("BEGIN TRANSACTION; DROP SEMANTIC VIEW order_metrics; ROLLBACK");
    expect(await names()).to.deep.equal([["order_metrics"]]);
    expect(await db.rows("SELECT * FROM semantic_view('order_metrics', metrics := ['total'])")).to.deep.equal([[15n]]);
  });
});
