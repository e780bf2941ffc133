/**
 * Introspection output as the extension prints it: `get_ddl` names a view the way the reference
 * named it (schema-qualified, quoted), DESCRIBE shows the view's COMMENT row after CREATE and after
 * ALTER ... SET COMMENT, NON_ADDITIVE_BY / WINDOW_SPEC write NULLS explicitly, and
 * `explain_semantic_view` prints the expanded SQL line by line in the extension's layout
 * (`docs/reference/explain-semantic-view-function.rst`) with the where_clause as written.
 */
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";

describe("conformance: introspection output", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount INTEGER, region VARCHAR, day DATE);
      CREATE TABLE customers (id INTEGER, name VARCHAR);
      INSERT INTO orders VALUES (1, 1, 10, 'EU', DATE '2024-01-01'), (2, 2, 20, 'US', DATE '2024-01-02');
      INSERT INTO customers VALUES (1, 'Ann'), (2, 'Bo');
      CREATE SCHEMA analytics;
      CREATE SCHEMA "my schema";
      CREATE SEMANTIC VIEW analytics.sales AS
        TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount));
      CREATE SEMANTIC VIEW "my schema"."my view" COMMENT = 'first' AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
        DIMENSIONS (o.region AS o.region, c.name AS c.name, o.day AS o.day)
        METRICS (
          o.revenue AS SUM(o.amount),
          c.customers AS COUNT(*),
          o.latest NON ADDITIVE BY (day) AS SUM(o.amount),
          o.running AS SUM(revenue) OVER (ORDER BY day DESC)
        );`);
  });
  after(() => db.close());

  const ddlOf = async (reference: string): Promise<string> =>
    String((await db.run(`SELECT get_ddl('SEMANTIC_VIEW', '${reference.replace(/'/g, "''")}')`)).rows[0]![0]);
  const explain = async (args: string): Promise<string[]> =>
    (await db.run(`SELECT explain_output FROM explain_semantic_view(${args})`)).rows.map((r) => String(r[0]));

  it("get_ddl names the view as the reference did: schema-qualified, quoted, or bare", async () => {
    expect(await ddlOf("analytics.sales")).to.match(/^CREATE OR REPLACE SEMANTIC VIEW analytics\.sales AS\nTABLES \(/);
    expect(await ddlOf('"my schema"."my view"')).to.match(
      /^CREATE OR REPLACE SEMANTIC VIEW "my schema"\."my view" COMMENT = 'first' AS\n/,
    );
    expect(await ddlOf("my view")).to.match(/^CREATE OR REPLACE SEMANTIC VIEW "my view" COMMENT/);
    // The schema-qualified DDL recreates the view in its schema.
    await db.run((await ddlOf("analytics.sales")).replace("SUM(o.amount)", "SUM(o.amount) * 2"));
    expect((await db.run("SELECT * FROM semantic_view('analytics.sales', metrics := ['revenue'])")).rows).to.deep.equal(
      [[60n]],
    );
  });

  it("DESCRIBE shows the view's COMMENT row after CREATE and after ALTER ... SET COMMENT", async () => {
    const commentRows = async (): Promise<unknown[][]> =>
      (await db.run(`SELECT * FROM describe_semantic_view('"my schema"."my view"') WHERE property = 'COMMENT'`)).rows;
    expect(await commentRows()).to.deep.equal([["SEMANTIC_VIEW", "my view", "", "COMMENT", "first"]]);
    await db.run(`ALTER SEMANTIC VIEW "my schema"."my view" SET COMMENT = 'second'`);
    expect(await commentRows()).to.deep.equal([["SEMANTIC_VIEW", "my view", "", "COMMENT", "second"]]);
    await db.run(`ALTER SEMANTIC VIEW "my schema"."my view" UNSET COMMENT`);
    expect(await commentRows()).to.deep.equal([]);
  });

  it("NON_ADDITIVE_BY and WINDOW_SPEC write the NULLS defaults", async () => {
    const rows = (
      await db.run(
        `SELECT object_name, property_value FROM describe_semantic_view('"my schema"."my view"') WHERE property IN ('NON_ADDITIVE_BY', 'WINDOW_SPEC') ORDER BY 1`,
      )
    ).rows;
    expect(rows).to.deep.equal([
      ["latest", "day NULLS LAST"],
      ["running", "SUM(revenue) OVER (ORDER BY day DESC NULLS FIRST)"],
    ]);
  });

  it("explain_semantic_view prints the SQL line by line, the where_clause as written", async () => {
    const lines = await explain(
      `'"my schema"."my view"', dimensions := ['name'], metrics := ['revenue'], where_clause := 'region = ''EU'''`,
    );
    const sql = lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:") - 1);
    expect(lines.slice(0, 4)).to.deep.equal([
      "-- Semantic View: my view",
      "-- Dimensions: name",
      "-- Metrics: revenue",
      "-- Materialization: none",
    ]);
    expect(sql).to.deep.equal([
      "SELECT",
      '    c.name AS "name",',
      '    (SUM(o.amount)) AS "revenue"',
      'FROM "memory"."main"."orders" AS "o"',
      'LEFT JOIN "memory"."main"."customers" AS "c"',
      '    ON "o"."customer_id" = "c"."id"',
      "WHERE (o.region) = 'EU'",
      "GROUP BY",
      "    1",
    ]);
  });

  it("explain_semantic_view's header lists explicit names as requested and wildcards expanded", async () => {
    const lines = await explain(`'"my schema"."my view"', dimensions := ['NAME', 'o.*'], metrics := ['Revenue']`);
    expect(lines.slice(0, 3)).to.deep.equal([
      "-- Semantic View: my view",
      "-- Dimensions: NAME, region, day",
      "-- Metrics: Revenue",
    ]);
  });

  it("explain_semantic_view prints each grain's CTE as its own set of lines", async () => {
    const lines = await explain(`'"my schema"."my view"', metrics := ['revenue', 'customers']`);
    const sql = lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:") - 1);
    expect(sql).to.deep.equal([
      "WITH __sv_grain_0 AS (",
      "    SELECT",
      '        SUM(o.amount) AS "__sv_m0"',
      '    FROM "memory"."main"."orders" AS "o"',
      "),",
      "__sv_grain_1 AS (",
      "    SELECT",
      '        COUNT(*) AS "__sv_m1"',
      '    FROM "memory"."main"."customers" AS "c"',
      ")",
      "SELECT",
      '    __sv_g0."__sv_m0" AS "revenue",',
      '    __sv_g1."__sv_m1" AS "customers"',
      "FROM __sv_grain_0 AS __sv_g0",
      "CROSS JOIN __sv_grain_1 AS __sv_g1",
    ]);
    expect(
      (await db.run(`SELECT * FROM semantic_view('"my schema"."my view"', metrics := ['revenue', 'customers'])`)).rows,
    ).to.deep.equal([[30n, 2n]]);
  });
});
