import { expect } from "chai";
import { parseSemanticStatement } from "../../runtime/semantic/ddl/parse-statement.js";
import type { CreateSemanticViewStatement } from "../../runtime/semantic/ddl/statements.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";

const create = (sql: string): CreateSemanticViewStatement => {
  const s = parseSemanticStatement(sql);
  if (s?.type !== "create") throw new Error(`not a create: ${sql}`);
  return s;
};

const parseError = (sql: string): SemanticViewError => {
  try {
    parseSemanticStatement(sql);
  } catch (e) {
    expect(e).to.be.instanceOf(SemanticViewError);
    expect((e as SemanticViewError).kind).to.equal("parse");
    return e as SemanticViewError;
  }
  throw new Error(`expected a parse error for: ${sql}`);
};

const SPEC_FIXTURE =
  "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country, sales_data.region AS region) METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))";

describe("semantic DDL parser", () => {
  it("parses the SPEC fixture", () => {
    const s = create(SPEC_FIXTURE);
    expect(s.orReplace).to.equal(true);
    expect(s.ifNotExists).to.equal(false);
    expect(s.name).to.deep.equal({ name: "sales" });
    expect(s.tables.map((t) => [t.alias, t.table])).to.deep.equal([["sales_data", "sales_data"]]);
    expect(s.dimensions.map((d) => [d.table, d.name, d.expr])).to.deep.equal([
      ["sales_data", "country", "country"],
      ["sales_data", "region", "region"],
    ]);
    expect(s.metrics.map((d) => [d.table, d.name, d.expr])).to.deep.equal([
      ["sales_data", "revenue", "SUM(revenue)"],
      ["sales_data", "cost", "SUM(cost)"],
    ]);
  });

  it("parses every clause with annotations and keeps expressions verbatim", () => {
    const s = create(`create semantic view if not exists mydb.analytics."CRM" comment = 'orders by customer' as
      tables (
        o as main.orders primary key (id) unique (order_no) unique (a, b) comment = 'orders' with synonyms = ('sales', 'purchases'),
        c AS "Customers" PRIMARY KEY (id) WITH SYNONYMS ('clients')
      )
      relationships (o_to_c as o(customer_id) references c, o_to_c2 as o(cust_a, cust_b) references c(a, b))
      facts (private o.net as o.gross - coalesce(o.discount, 0) comment = 'net, after discount' with synonyms = ('n'))
      dimensions (
        c.segment as c.segment,
        o.is_big as o.gross > 1000 labels = (filter),
        o.month as date_trunc('month', o.ts) -- trailing comment
      )
      metrics (
        private o.net_sum as sum(o.net),
        o.n_orders using (o_to_c) as count(*) comment = 'count',
        avg_net as net_sum / nullif(n_orders, 0) comment = 'mean, per order',
        o.weird as sum(case when o.x in (1, 2) then 1 else 0 end)
      )`);
    expect(s.ifNotExists).to.equal(true);
    expect(s.name).to.deep.equal({ database: "mydb", schema: "analytics", name: "CRM" });
    expect(s.comment).to.equal("orders by customer");
    expect(s.tables[0]).to.include({ alias: "o", table: "main.orders", comment: "orders" });
    expect(s.tables[0]!.tableParts).to.deep.equal(["main", "orders"]);
    expect(s.tables[0]!.primaryKey).to.deep.equal(["id"]);
    expect(s.tables[0]!.unique).to.deep.equal([["order_no"], ["a", "b"]]);
    expect(s.tables[0]!.synonyms).to.deep.equal(["sales", "purchases"]);
    expect(s.tables[1]).to.include({ alias: "c", table: '"Customers"' });
    expect(s.tables[1]!.synonyms).to.deep.equal(["clients"]);
    expect(s.relationships.map((r) => [r.name, r.fromAlias, r.fkColumns, r.toAlias, r.refColumns])).to.deep.equal([
      ["o_to_c", "o", ["customer_id"], "c", []],
      ["o_to_c2", "o", ["cust_a", "cust_b"], "c", ["a", "b"]],
    ]);
    expect(s.facts[0]).to.include({
      access: "private",
      table: "o",
      name: "net",
      expr: "o.gross - coalesce(o.discount, 0)",
      comment: "net, after discount",
    });
    expect(s.facts[0]!.synonyms).to.deep.equal(["n"]);
    expect(s.dimensions.map((d) => [d.name, d.expr, d.isFilter])).to.deep.equal([
      ["segment", "c.segment", false],
      ["is_big", "o.gross > 1000", true],
      ["month", "date_trunc('month', o.ts)", false],
    ]);
    expect(s.metrics.map((m) => [m.table, m.name, m.expr, m.access, m.using, m.comment])).to.deep.equal([
      ["o", "net_sum", "sum(o.net)", "private", [], undefined],
      ["o", "n_orders", "count(*)", undefined, ["o_to_c"], "count"],
      [undefined, "avg_net", "net_sum / nullif(n_orders, 0)", undefined, [], "mean, per order"],
      ["o", "weird", "sum(case when o.x in (1, 2) then 1 else 0 end)", undefined, [], undefined],
    ]);
  });

  it("accepts the trailing COMMENT position and a terminating semicolon", () => {
    const s = create("CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) COMMENT = 'trailing';");
    expect(s.comment).to.equal("trailing");
  });

  it("keeps expressions with strings containing commas, parentheses and keywords", () => {
    const s = create(
      `CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS concat(t.x, ', COMMENT = ) (', "odd""name"), t.b AS t.y::VARCHAR[])`,
    );
    expect(s.dimensions.map((d) => d.expr)).to.deep.equal([
      `concat(t.x, ', COMMENT = ) (', "odd""name")`,
      "t.y::VARCHAR[]",
    ]);
  });

  it("accepts LABELS before AS", () => {
    const s = create("CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.big LABELS = (FILTER) AS t.x > 1)");
    expect(s.dimensions[0]!.isFilter).to.equal(true);
  });

  it("generates a name for an unnamed relationship", () => {
    const s = create(
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders, c AS customers PRIMARY KEY (id)) RELATIONSHIPS (o(cid) REFERENCES c) DIMENSIONS (c.n AS c.n)",
    );
    expect(s.relationships[0]!.name).to.equal("o_to_c");
  });

  it("parses DROP and ALTER", () => {
    expect(parseSemanticStatement("DROP SEMANTIC VIEW v")).to.deep.equal({
      type: "drop",
      ifExists: false,
      name: { name: "v" },
    });
    expect(parseSemanticStatement("drop semantic view if exists s.v;")).to.deep.equal({
      type: "drop",
      ifExists: true,
      name: { schema: "s", name: "v" },
    });
    expect(parseSemanticStatement("ALTER SEMANTIC VIEW v RENAME TO w")).to.deep.equal({
      type: "alter",
      ifExists: false,
      name: { name: "v" },
      change: { action: "rename", newName: { name: "w" } },
    });
    expect(parseSemanticStatement("ALTER SEMANTIC VIEW IF EXISTS v SET COMMENT = 'it''s'")).to.deep.equal({
      type: "alter",
      ifExists: true,
      name: { name: "v" },
      change: { action: "set_comment", comment: "it's" },
    });
    expect(parseSemanticStatement("ALTER SEMANTIC VIEW v UNSET COMMENT")).to.deep.equal({
      type: "alter",
      ifExists: false,
      name: { name: "v" },
      change: { action: "unset_comment" },
    });
  });

  it("recognises INSTALL/LOAD of semantic_views only", () => {
    for (const sql of [
      "INSTALL semantic_views",
      "install 'semantic_views'",
      'INSTALL "semantic_views"',
      "INSTALL semantic_views FROM community",
      "FORCE INSTALL semantic_views FROM community;",
    ]) {
      expect(parseSemanticStatement(sql), sql).to.deep.equal({ type: "extension", verb: "install" });
    }
    expect(parseSemanticStatement("LOAD semantic_views")).to.deep.equal({ type: "extension", verb: "load" });
    expect(parseSemanticStatement("LOAD httpfs")).to.equal(null);
    expect(parseSemanticStatement("INSTALL json")).to.equal(null);
  });

  it("parses SHOW and DESCRIBE forms", () => {
    expect(parseSemanticStatement("SHOW SEMANTIC VIEWS")).to.deep.include({ type: "show_views", terse: false });
    expect(
      parseSemanticStatement("SHOW TERSE SEMANTIC VIEWS LIKE 'sa%' IN SCHEMA main STARTS WITH 's' LIMIT 5"),
    ).to.deep.include({
      type: "show_views",
      terse: true,
      like: "sa%",
      startsWith: "s",
      limit: 5,
      inSchema: "main",
    });
    expect(parseSemanticStatement("SHOW COLUMNS IN SEMANTIC VIEW main.v")).to.deep.equal({
      type: "show_columns",
      view: { schema: "main", name: "v" },
    });
    expect(parseSemanticStatement("SHOW SEMANTIC METRICS IN v")).to.deep.include({
      type: "show_members",
      kind: "metrics",
      view: { name: "v" },
    });
    expect(parseSemanticStatement("SHOW SEMANTIC DIMENSIONS")).to.deep.include({
      type: "show_members",
      kind: "dimensions",
      view: undefined,
    });
    expect(parseSemanticStatement("DESCRIBE SEMANTIC VIEW v")).to.deep.equal({ type: "describe", view: { name: "v" } });
    expect(parseSemanticStatement("DESC SEMANTIC VIEW v")).to.deep.equal({ type: "describe", view: { name: "v" } });
  });

  it("returns null for ordinary SQL", () => {
    for (const sql of [
      "SELECT 'semantic'",
      "CREATE VIEW semantic AS SELECT 1",
      "DESCRIBE semantic_table",
      "SHOW TABLES",
      "SELECT * FROM semantic_view('v', metrics := ['m'])",
    ]) {
      expect(parseSemanticStatement(sql), sql).to.equal(null);
    }
  });

  describe("parse errors", () => {
    it("points at the offending token with line, column and caret", () => {
      const e = parseError("CREATE SEMANTIC VIEW v AS\nTABLES (t)\nDIMENSIONZ (t.a AS a)");
      expect(e.message).to.equal(
        "Unknown clause keyword 'DIMENSIONZ'; did you mean 'DIMENSIONS'? (expected one of TABLES, RELATIONSHIPS, FACTS, DIMENSIONS, METRICS, MATERIALIZATIONS) (line 3, column 1)\nLINE 3: DIMENSIONZ (t.a AS a)\n        ^",
      );
    });

    const cases: [string, string][] = [
      ["CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.a AS a)", "Expected 'AS' or 'FROM YAML' after view name."],
      ["CREATE SEMANTIC VIEW AS TABLES (t) DIMENSIONS (t.a AS a)", "Expected 'AS' or 'FROM YAML' after view name."],
      ["CREATE SEMANTIC VIEW", "Missing view name after DDL prefix."],
      [
        "CREATE SEMANTIC VIEW v AS DIMENSIONS (t.a AS a)",
        "Missing required clause 'TABLES'. TABLES must come first, found DIMENSIONS.",
      ],
      ["CREATE SEMANTIC VIEW v AS", "Missing required clause 'TABLES'."],
      ["CREATE SEMANTIC VIEW v AS TABLES (t)", "At least one of 'DIMENSIONS' or 'METRICS' is required."],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS SUM(x)) DIMENSIONS (t.a AS a)",
        "Clause 'DIMENSIONS' appears out of order; clauses must appear as: TABLES, RELATIONSHIPS (optional)",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) DIMENSIONS (t.b AS b)",
        "Duplicate clause keyword 'DIMENSIONS'.",
      ],
      ["CREATE SEMANTIC VIEW v AS TABLES () DIMENSIONS (t.a AS a)", "TABLES must list at least one entry"],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (a AS a)",
        "dimension 'a' must be qualified with its table alias (alias.a)",
      ],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) FACTS (f AS 1) DIMENSIONS (t.a AS a)", "fact 'f' must be qualified"],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (PRIVATE t.a AS a)", "dimension 'a' cannot be PRIVATE"],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS )", "missing expression after AS for dimension 'a'"],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a a)", "expected AS after dimension 't.a', found 'a'"],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS SUM(x) USING (r))",
        "USING must come before AS in metric 'm'",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS SUM(x) LABELS = (FILTER))",
        "LABELS is not valid on a metric; it applies to facts and dimensions",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a LABELS = (FILTR))",
        "unknown label 'FILTR' on dimension 'a'; the only label is FILTER. Did you mean 'FILTER'?",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t PRIMARY KY (id)) DIMENSIONS (t.a AS a)",
        "expected KEY after PRIMARY, found 'KY'. Did you mean 'KEY'?",
      ],
      ["CREATE SEMANTIC VIEW v AS TABLES (t PRIMRY KEY (id)) DIMENSIONS (t.a AS a)", "Did you mean 'PRIMARY'?"],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (o, c) RELATIONSHIPS (r AS o(x) REFERENCES c MANY TO ONE) DIMENSIONS (o.a AS a)",
        "cardinality keywords",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (o, c) RELATIONSHIPS (r AS o(x) REFRENCES c) DIMENSIONS (o.a AS a)",
        "expected REFERENCES in relationship 'r', found 'REFRENCES'. Did you mean 'REFERENCES'?",
      ],
      ["CREATE SEMANTIC VIEW v COMMENT = 'a' AS TABLES (t) DIMENSIONS (t.a AS a) COMMENT = 'b'", "COMMENT given twice"],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) MATERIALIZATIONS (m AS (TABLE x))",
        "Materialization 'm': must specify at least one of DIMENSIONS or METRICS.",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) MATERIALIZATIONS (m AS (DIMENSIONS (a)))",
        "Materialization 'm': missing TABLE sub-clause.",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) MATERIALIZATIONS (m AS (TABLE x, TABLE y))",
        "Materialization 'm': duplicate TABLE sub-clause.",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) MATERIALIZATIONS (m AS (TABLE x, DIMENSIONS (a))) DIMENSIONS (t.a AS a)",
        "Clause 'DIMENSIONS' appears out of order",
      ],
      ["SHOW SEMANTIC DIMENSIONS IN v LIKE '%x%'", "LIKE must come before IN"],
      ["SHOW SEMANTIC DIMENSIONS IN v LIMIT 2 STARTS WITH 'a'", "STARTS WITH must come before LIMIT"],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) extra", "Unknown clause keyword 'extra'"],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS (a)", "Unclosed '(' for clause 'DIMENSIONS'."],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS SUM(x) NON ADDITIVE BY (d))",
        "'NON ADDITIVE BY (...)' must come BEFORE 'AS' in a metric entry",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m NON ADDITIVE BY (d NULLS MIDDLE) AS SUM(x))",
        "expected FIRST or LAST after NULLS, found 'MIDDLE' in NON ADDITIVE BY of metric 'm'",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS AVG(o.x) OVER ())",
        "window metric 'm': the inner metric is named without a table alias",
      ],
      [
        "CREATE SEMANTIC VIEW v AS TABLES (t) METRICS (t.m AS AVG(x) OVER (ORDER BY d, PARTITION BY e))",
        "window metric 'm': unexpected 'BY' in OVER (...)",
      ],
      ["CREATE SEMANTIC VIEW v FROM YAML tables", "Expected '$' to begin dollar-quoted string"],
      [
        "CREATE OR REPLACE SEMANTIC VIEW IF NOT EXISTS v AS TABLES (t) DIMENSIONS (t.a AS a)",
        "OR REPLACE and IF NOT EXISTS cannot be combined",
      ],
      ["CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS 'open)", "unterminated quoted string"],
      ["DROP SEMANTIC VIEW", "expected semantic view name, found end of statement"],
      ["ALTER SEMANTIC VIEW v RENAME w", "expected TO after RENAME, found 'w'"],
      ["ALTER SEMANTIC VIEW v DROP COMMENT", "expected RENAME TO, SET COMMENT or UNSET COMMENT"],
      ["SHOW SEMANTIC VIEWS LIMIT x", "LIMIT expects a non-negative integer"],
      ["SHOW SEMANTIC WIDGETS", "expected SHOW SEMANTIC VIEWS | DIMENSIONS | METRICS | FACTS | MATERIALIZATIONS"],
    ];
    for (const [sql, message] of cases) {
      it(`rejects: ${sql}`, () => {
        expect(parseError(sql).message).to.include(message);
      });
    }
  });
});
