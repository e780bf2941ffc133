/**
 * docs/reference/alter-semantic-view.rst: RENAME TO keeps the whole definition under the new name
 * (old_name, new_name row), IF EXISTS is a silent no-op for a missing view, an existing target is an
 * error, and the statement is case-insensitive.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/alter-semantic-view", () => {
  let db: DocsRunner;
  const view = (name: string) =>
    `CREATE OR REPLACE SEMANTIC VIEW ${name} AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.total_amount AS SUM(o.amount))`;

  beforeEach(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER);
      INSERT INTO orders VALUES (1, 'East', 10), (2, 'East', 5), (3, 'West', 7);`);
    await db.run(view("sales_view"));
  });
  afterEach(() => db.close());

  const query = (name: string) =>
    `SELECT * FROM semantic_view('${name}', dimensions := ['region'], metrics := ['total_amount'])`;

  it("renames, returning old_name and new_name; the new name answers and the old one fails", async () => {
    const renamed = await db.run("ALTER SEMANTIC VIEW sales_view RENAME TO revenue_view");
    expect(renamed.columns.map((c) => [c.name, c.type])).to.deep.equal([
      ["old_name", "VARCHAR"],
      ["new_name", "VARCHAR"],
    ]);
    expect(renamed.rows).to.deep.equal([["sales_view", "revenue_view"]]);
    expect(await db.rows(query("revenue_view"))).to.deep.equal([
      ["East", 15n],
      ["West", 7n],
    ]);
    expect((await db.error(query("sales_view"))).message).to.contain("'sales_view'");
  });

  it("keeps the definition: get_ddl differs only in the name", async () => {
    const [[before]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'sales_view')")).rows as [[string]];
    await db.run("ALTER SEMANTIC VIEW sales_view RENAME TO revenue_view");
    const [[after]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'revenue_view')")).rows as [[string]];
    expect(after).to.equal(before.replace("sales_view", "revenue_view"));
  });

  it("IF EXISTS on a missing view succeeds without changing anything", async () => {
    await db.run("ALTER SEMANTIC VIEW IF EXISTS old_reports RENAME TO new_reports");
    const names = (await db.run("SELECT name FROM list_terse_semantic_views()")).rows;
    expect(names).to.deep.equal([["sales_view"]]);
  });

  it("a missing view without IF EXISTS is an error", async () => {
    expect((await db.error("ALTER SEMANTIC VIEW old_reports RENAME TO new_reports")).message).to.equal(
      "semantic view 'old_reports' does not exist",
    );
  });

  it("renaming onto an existing view is an error, with or without IF EXISTS", async () => {
    await db.run(view("sales"));
    await db.run(view("inventory"));
    expect((await db.error("ALTER SEMANTIC VIEW sales RENAME TO inventory")).message).to.equal(
      "semantic view 'inventory' already exists",
    );
    expect((await db.error("ALTER SEMANTIC VIEW IF EXISTS sales RENAME TO inventory")).message).to.equal(
      "semantic view 'inventory' already exists",
    );
  });

  it("the statement is case-insensitive", async () => {
    expect((await db.run("alter semantic view sales_view rename to revenue_view")).rows).to.deep.equal([
      ["sales_view", "revenue_view"],
    ]);
  });
});
