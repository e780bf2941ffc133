/**
 * Quoted identifiers wherever a definition declares or references a name, as the extension handles
 * them: names are stored as written (SHOW, DESCRIBE, GET_DDL and the YAML export show
 * `"Total Revenue"` with its quotes, `MixedCase` with its case), references match case-insensitively
 * with quotes stripped (`src/ident.rs`), and the result columns carry the bare name.
 */
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";

describe("conformance: quoted identifiers in definitions", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE "My Orders" (id INTEGER, amount INTEGER, "order date" DATE, "Sales Region" VARCHAR);
      INSERT INTO "My Orders" VALUES
        (1, 10, DATE '2024-01-01', 'EU'), (2, 20, DATE '2024-01-02', 'EU'),
        (3, 5, DATE '2024-01-01', 'US'), (4, 7, DATE '2024-01-03', 'US');
      CREATE SEMANTIC VIEW quoted AS
      TABLES (o AS "My Orders" PRIMARY KEY (id))
      FACTS (o."Net Amount" AS o.amount * 2)
      DIMENSIONS (
        o."order date" AS o."order date",
        o.Region AS o."Sales Region"
      )
      METRICS (
        o."Total Revenue" AS SUM(o.amount),
        o."Net Total" AS SUM(o."Net Amount"),
        "Double Revenue" AS "Total Revenue" * 2,
        o.latest NON ADDITIVE BY (o."order date" DESC) AS SUM(o.amount),
        o.running AS SUM("Total Revenue") OVER (PARTITION BY Region ORDER BY o."order date")
      );`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("a derived metric references a quoted metric name with a space", async () => {
    const r = await db.run(
      `SELECT * FROM semantic_view('quoted', dimensions := ['region'], metrics := ['"Total Revenue"', '"double revenue"']) ORDER BY 1`,
    );
    expect(r.columns.map((c) => c.name)).to.deep.equal(["Region", "Total Revenue", "Double Revenue"]);
    expect(r.rows).to.deep.equal([
      ["EU", 30n, 60n],
      ["US", 12n, 24n],
    ]);
  });

  it("a quoted fact inlines into a metric, and quoted members filter in where_clause", async () => {
    expect(
      await text(
        `SELECT * FROM semantic_view('quoted', metrics := ['"Net Total"'], where_clause := '"order date" = DATE ''2024-01-01''')`,
      ),
    ).to.deep.equal([["30"]]);
    expect(
      await text(
        `SELECT * FROM semantic_view('quoted', facts := ['"Net Amount"'], dimensions := ['region']) ORDER BY ALL`,
      ),
    ).to.deep.equal([
      ["EU", "20"],
      ["EU", "40"],
      ["US", "10"],
      ["US", "14"],
    ]);
  });

  it('NON ADDITIVE BY (o."order date" DESC) picks the earliest date per group', async () => {
    expect(
      await text(`SELECT * FROM semantic_view('quoted', dimensions := ['region'], metrics := ['latest']) ORDER BY 1`),
    ).to.deep.equal([
      ["EU", "10"],
      ["US", "5"],
    ]);
    // Queried by its qualified spelling, the NON ADDITIVE BY dimension makes the metric additive.
    expect(
      await text(
        `SELECT * FROM semantic_view('quoted', dimensions := ['o."order date"'], metrics := ['latest']) ORDER BY 1`,
      ),
    ).to.deep.equal([
      ["2024-01-01", "15"],
      ["2024-01-02", "20"],
      ["2024-01-03", "7"],
    ]);
  });

  it('a window ORDER BY o."order date" and an inner metric named "Total Revenue"', async () => {
    expect(
      await text(
        `SELECT * FROM semantic_view('quoted', dimensions := ['region', '"order date"'], metrics := ['running']) ORDER BY 1, 2`,
      ),
    ).to.deep.equal([
      ["EU", "2024-01-01", "10"],
      ["EU", "2024-01-02", "30"],
      ["US", "2024-01-01", "5"],
      ["US", "2024-01-03", "12"],
    ]);
    const missing = await db.error(
      "SELECT * FROM semantic_view('quoted', dimensions := ['region'], metrics := ['running'])",
    );
    expect(missing.message).to.contain(
      `window function metric 'running' requires dimension 'o."order date"' to be included in the query (used in ORDER BY)`,
    );
  });

  it("SHOW and DESCRIBE show names as written (quotes kept, case kept)", async () => {
    const dims = await db.run("SHOW SEMANTIC DIMENSIONS IN quoted");
    expect(dims.rows.map((r) => [r[3], r[4]])).to.deep.equal([
      ["My Orders", '"order date"'],
      ["My Orders", "Region"],
    ]);
    const metrics = await db.run("SHOW SEMANTIC METRICS IN quoted");
    expect(metrics.rows.map((r) => r[4])).to.deep.equal([
      '"Double Revenue"',
      '"Net Total"',
      '"Total Revenue"',
      "latest",
      "running",
    ]);
    const described = await db.run(
      "SELECT object_kind, object_name, property_value FROM describe_semantic_view('quoted') WHERE property IN ('NON_ADDITIVE_BY', 'WINDOW_SPEC') OR (object_kind = 'FACT' AND property = 'TABLE')",
    );
    expect(described.rows).to.deep.equal([
      ["FACT", '"Net Amount"', "My Orders"],
      ["METRIC", "latest", 'o."order date" DESC NULLS FIRST'],
      ["METRIC", "running", 'SUM("Total Revenue") OVER (PARTITION BY Region ORDER BY o."order date" NULLS LAST)'],
    ]);
  });

  it("dimensions for a metric named quoted, and the window's ORDER BY dimension required", async () => {
    expect(
      (await db.run(`SELECT name, required FROM show_semantic_dimensions_for_metric('quoted', '"total revenue"')`))
        .rows,
    ).to.deep.equal([
      ['"order date"', false],
      ["Region", false],
    ]);
    expect(
      (await db.run(`SELECT name, required FROM show_semantic_dimensions_for_metric('quoted', 'running')`)).rows,
    ).to.deep.equal([
      ['"order date"', true],
      ["Region", true],
    ]);
  });

  it("GET_DDL and the YAML export round-trip the quoted names", async () => {
    const [[ddl]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'quoted')")).rows as [[string]];
    expect(ddl).to.contain('o."Total Revenue" AS SUM(o.amount)');
    expect(ddl).to.contain('"Double Revenue" AS "Total Revenue" * 2');
    expect(ddl).to.contain('o.latest NON ADDITIVE BY (o."order date" DESC NULLS FIRST) AS SUM(o.amount)');
    const query = `SELECT * FROM semantic_view('quoted', dimensions := ['region', '"order date"'], metrics := ['running']) ORDER BY 1, 2`;
    const before = await text(query);
    const [[yaml]] = (await db.run("SELECT read_yaml_from_semantic_view('quoted')")).rows as [[string]];
    await db.run(ddl.replace("SEMANTIC VIEW quoted", "SEMANTIC VIEW quoted_again"));
    await db.run(`CREATE SEMANTIC VIEW quoted_yaml FROM YAML $$${yaml}$$`);
    for (const copy of ["quoted_again", "quoted_yaml"]) {
      expect(await text(query.replace("'quoted'", `'${copy}'`)), copy).to.deep.equal(before);
      const [[again]] = (await db.run(`SELECT get_ddl('SEMANTIC_VIEW', '${copy}')`)).rows as [[string]];
      expect(again.replace(copy, "quoted"), copy).to.equal(ddl);
    }
  });

  it("view names with spaces or upper case fold to lower case, quoted or not (v0.11 CHANGELOG)", async () => {
    const body = `AS TABLES (o AS "My Orders" PRIMARY KEY (id)) DIMENSIONS (o.region AS o."Sales Region") METRICS (o.n AS COUNT(*))`;
    await db.run(`CREATE SEMANTIC VIEW "Total Amount" ${body}`);
    await db.run(`CREATE SEMANTIC VIEW MixedCase ${body}`);
    const shown = (
      await db.run(
        "SELECT name FROM list_terse_semantic_views() WHERE name IN ('total amount', 'mixedcase') ORDER BY name",
      )
    ).rows;
    expect(shown).to.deep.equal([["mixedcase"], ["total amount"]]);
    // Every spelling reaches the view: the lookup folds the reference the same way.
    for (const reference of ["MIXEDCASE", '"MixedCase"', "main.mixedcase"]) {
      expect(await text(`SELECT * FROM semantic_view('${reference}', metrics := ['n'])`), reference).to.deep.equal([
        ["4"],
      ]);
    }
    expect(await text(`SELECT * FROM semantic_view('"TOTAL AMOUNT"', metrics := ['n'])`)).to.deep.equal([["4"]]);
    // GET_DDL quotes the stored name only where a bare one would not read back as it.
    const [[ddl]] = (await db.run(`SELECT get_ddl('SEMANTIC_VIEW', '"Total Amount"')`)).rows as [[string]];
    expect(ddl.split("\n")[0]).to.equal('CREATE OR REPLACE SEMANTIC VIEW "total amount" AS');
    await db.run(`DROP SEMANTIC VIEW "TOTAL AMOUNT"; DROP SEMANTIC VIEW mixedcase`);
  });

  it("a quoted table name without an alias names the table and its members", async () => {
    await db.run(
      `CREATE SEMANTIC VIEW bare_table AS TABLES ("My Orders" PRIMARY KEY (id)) DIMENSIONS ("My Orders".region AS "My Orders"."Sales Region") METRICS ("My Orders".n AS COUNT(*))`,
    );
    expect(
      await text("SELECT * FROM semantic_view('bare_table', dimensions := ['region'], metrics := ['n']) ORDER BY 1"),
    ).to.deep.equal([
      ["EU", "2"],
      ["US", "2"],
    ]);
  });
});
