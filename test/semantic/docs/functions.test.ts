/**
 * docs/reference/functions.rst: the functions to call directly, the table functions behind the
 * statements (same rows as the statement), and "statements are not subqueries". The page's
 * duckdb_functions() discovery does not apply: the built-in engine rewrites the calls before DuckDB
 * binds them and registers no DuckDB functions (runtime/semantic/README.md, "Differences").
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/functions", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER);
      INSERT INTO orders VALUES (1, 'East', 10), (2, 'West', 5), (3, 'East', 1);
      CREATE TABLE sales_by_region AS SELECT region, SUM(amount) AS revenue FROM orders GROUP BY region;
      CREATE SEMANTIC VIEW sales AS
        TABLES (o AS orders PRIMARY KEY (id))
        FACTS (o.net AS o.amount - 1)
        DIMENSIONS (o.region AS o.region)
        METRICS (o.revenue AS SUM(o.amount))
        MATERIALIZATIONS (by_region AS (TABLE sales_by_region, DIMENSIONS (region), METRICS (revenue)));`);
  });
  after(() => db.close());

  it("the functions to call directly: semantic_view, explain_semantic_view, get_ddl, read_yaml_from_semantic_view", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['revenue'])"),
    ).to.deep.equal([
      ["East", 11n],
      ["West", 5n],
    ]);
    const explained = (
      await db.run("SELECT * FROM explain_semantic_view('sales', dimensions := ['region'], metrics := ['revenue'])")
    ).rows;
    expect(String(explained[0]![0])).to.equal("-- Semantic View: sales");
    const [[ddl, qualified, yaml]] = (
      await db.run(
        "SELECT get_ddl('SEMANTIC_VIEW', 'sales'), get_ddl('SEMANTIC_VIEW', 'sales', true), read_yaml_from_semantic_view('sales')",
      )
    ).rows as [[string, string, string]];
    expect(ddl.split("\n")[0]).to.equal("CREATE OR REPLACE SEMANTIC VIEW sales AS");
    expect(qualified.split("\n")[0]).to.equal("CREATE OR REPLACE SEMANTIC VIEW memory.main.sales AS");
    expect(yaml).to.contain("materializations:");
  });

  it("each table function returns the rows of the statement it backs", async () => {
    const pairs: [string, string][] = [
      ["DESCRIBE SEMANTIC VIEW sales", "describe_semantic_view('sales')"],
      ["SHOW SEMANTIC VIEWS", "list_semantic_views()"],
      ["SHOW TERSE SEMANTIC VIEWS", "list_terse_semantic_views()"],
      ["SHOW COLUMNS IN SEMANTIC VIEW sales", "show_columns_in_semantic_view('sales')"],
      ["SHOW SEMANTIC DIMENSIONS IN sales", "show_semantic_dimensions('sales')"],
      ["SHOW SEMANTIC DIMENSIONS", "show_semantic_dimensions_all()"],
      [
        "SHOW SEMANTIC DIMENSIONS IN sales FOR METRIC revenue",
        "show_semantic_dimensions_for_metric('sales', 'revenue')",
      ],
      ["SHOW SEMANTIC FACTS IN sales", "show_semantic_facts('sales')"],
      ["SHOW SEMANTIC FACTS", "show_semantic_facts_all()"],
      ["SHOW SEMANTIC MATERIALIZATIONS IN sales", "show_semantic_materializations('sales')"],
      ["SHOW SEMANTIC MATERIALIZATIONS", "show_semantic_materializations_all()"],
      ["SHOW SEMANTIC METRICS IN sales", "show_semantic_metrics('sales')"],
      ["SHOW SEMANTIC METRICS", "show_semantic_metrics_all()"],
    ];
    for (const [statement, fn] of pairs) {
      const direct = await db.run(statement);
      const viaFunction = await db.run(`SELECT * FROM ${fn}`);
      expect(direct.rows.length, statement).to.be.greaterThan(0);
      expect(
        viaFunction.columns.map((c) => c.name),
        fn,
      ).to.deep.equal(direct.columns.map((c) => c.name));
      expect(
        viaFunction.rows.map((r) => r.map(String)),
        fn,
      ).to.deep.equal(direct.rows.map((r) => r.map(String)));
    }
  });

  it("SHOW SEMANTIC ... and DESCRIBE SEMANTIC VIEW are not subqueries: a parser error naming the function", async () => {
    for (const [statement, hint] of [
      ["SELECT name FROM (SHOW SEMANTIC VIEWS)", "list_semantic_views()"],
      ["SELECT * FROM (DESCRIBE SEMANTIC VIEW sales)", "describe_semantic_view('v')"],
      ["WITH d AS (SHOW SEMANTIC DIMENSIONS IN sales) SELECT * FROM d", "show_semantic_dimensions"],
      ["SELECT * FROM (SHOW COLUMNS IN SEMANTIC VIEW sales)", "show_columns_in_semantic_view('v')"],
    ]) {
      const e = await db.error(statement!);
      expect(e.kind, statement).to.equal("parse");
      expect(e.message, statement).to.contain('syntax error at or near "SEMANTIC"');
      expect(e.message, statement).to.contain(hint);
    }
  });

  it("the GET_DDL recipe reads the view list from list_semantic_views() as a FROM source", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW other AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region)",
    );
    const { rows } = await db.run(
      "SELECT name, get_ddl('SEMANTIC_VIEW', name) AS ddl FROM list_semantic_views() ORDER BY name",
    );
    const [[sales]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'sales')")).rows as [[string]];
    const [[other]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'other')")).rows as [[string]];
    expect(rows).to.deep.equal([
      ["other", other],
      ["sales", sales],
    ]);
    // Qualified per row, fully qualified by the third argument, and an unknown name is the usual error.
    const [[qualified, full]] = (
      await db.run(
        "SELECT get_ddl('SEMANTIC_VIEW', 'main.' || name), get_ddl('SEMANTIC_VIEW', upper(name), true) FROM (SELECT 'other' AS name)",
      )
    ).rows as [[string, string]];
    expect(qualified.split("\n")[0]).to.equal("CREATE OR REPLACE SEMANTIC VIEW main.other AS");
    expect(full.split("\n")[0]).to.equal("CREATE OR REPLACE SEMANTIC VIEW memory.main.other AS");
    let message = "";
    try {
      await db.run("SELECT get_ddl('SEMANTIC_VIEW', name) FROM (SELECT 'nope' AS name)");
    } catch (error) {
      message = String(error);
    }
    expect(message).to.contain("semantic view 'nope' does not exist");
    await db.run("DROP SEMANTIC VIEW other");
  });
});
