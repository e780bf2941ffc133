import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { loadDefinition } from "../../runtime/semantic/catalog.js";
import { TestSession } from "./support/session.js";

describe("semantic DDL validation", () => {
  const layer = createBuiltinSemanticLayer();
  let session: TestSession;

  before(async () => {
    session = await TestSession.open();
    for (const sql of [
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, zone_from INTEGER, zone_to INTEGER, gross DECIMAL(10,2), discount DECIMAL(10,2), ts TIMESTAMP, order_no VARCHAR)",
      "CREATE TABLE customers (id INTEGER, segment VARCHAR, name VARCHAR, region_id INTEGER)",
      "CREATE TABLE regions (id INTEGER, name VARCHAR, manager VARCHAR)",
      "CREATE TABLE zones (zone_id INTEGER, borough VARCHAR)",
    ]) {
      await session.query(sql);
    }
  });
  after(() => session.close());

  const invalid = async (sql: string): Promise<SemanticViewError> => {
    try {
      await layer.handle(session, sql);
    } catch (e) {
      expect(e).to.be.instanceOf(SemanticViewError);
      return e as SemanticViewError;
    }
    throw new Error(`expected CREATE to fail: ${sql}`);
  };

  const ok = async (sql: string): Promise<void> => {
    const r = await layer.handle(session, sql);
    expect(r.kind).to.equal("result");
  };

  const STAR = `TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), r AS regions PRIMARY KEY (id))
    RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c, c_r AS c(region_id) REFERENCES r)`;

  it("accepts a valid star with facts, dimensions, private and derived metrics", async () => {
    await ok(`CREATE OR REPLACE SEMANTIC VIEW crm AS ${STAR}
      FACTS (o.net AS o.gross - o.discount, o.net2 AS net * 2, c.seg_upper AS upper(c.segment))
      DIMENSIONS (c.segment AS c.segment, r.region AS r.name, o.month AS date_trunc('month', o.ts), o.big AS o.gross > 1000 LABELS = (FILTER),
                  o.seg AS c.seg_upper)
      METRICS (PRIVATE o.net_sum AS SUM(o.net), o.n_orders AS COUNT(*), o.avg_gross AS AVG(gross),
               avg_net AS net_sum / NULLIF(n_orders, 0), ratio AS avg_net * 100 / o.avg_gross)`);
    const def = await loadDefinition(session, "crm");
    expect(def?.relationships.map((r) => [r.name, r.refColumns, r.cardinality])).to.deep.equal([
      ["o_c", ["id"], "many_to_one"],
      ["c_r", ["id"], "many_to_one"],
    ]);
    expect(def?.metrics.map((m) => [m.name, m.table, m.access])).to.deep.equal([
      ["net_sum", "o", "private"],
      ["n_orders", "o", "public"],
      ["avg_gross", "o", "public"],
      ["avg_net", undefined, "public"],
      ["ratio", undefined, "public"],
    ]);
    expect(def?.tables[0]?.resolved).to.deep.equal({ database: "memory", schema: "main", name: "orders" });
  });

  it("infers one-to-one cardinality when the FK is a key of the source table", async () => {
    await ok(`CREATE OR REPLACE SEMANTIC VIEW one AS TABLES (c AS customers PRIMARY KEY (id) UNIQUE (region_id), r AS regions PRIMARY KEY (id))
      RELATIONSHIPS (c_r AS c(region_id) REFERENCES r) DIMENSIONS (r.name AS r.name)`);
    expect((await loadDefinition(session, "one"))?.relationships[0]?.cardinality).to.equal("one_to_one");
  });

  it("accepts role-playing relationships from one table", async () => {
    await ok(`CREATE OR REPLACE SEMANTIC VIEW trips AS
      TABLES (t AS orders PRIMARY KEY (id), z AS zones PRIMARY KEY (zone_id))
      RELATIONSHIPS (pickup AS t(zone_from) REFERENCES z, dropoff AS t(zone_to) REFERENCES z)
      DIMENSIONS (z.borough AS z.borough)
      METRICS (t.pickups USING (pickup) AS COUNT(*), t.dropoffs USING (dropoff) AS COUNT(*))`);
  });

  it("accepts tables that do not exist yet (column checks are skipped)", async () => {
    await ok(
      "CREATE OR REPLACE SEMANTIC VIEW later AS TABLES (f AS future_table) DIMENSIONS (f.a AS f.anything) METRICS (f.m AS SUM(f.x))",
    );
  });

  const cases: [string, string, string][] = [
    [
      "duplicate table alias",
      "TABLES (o AS orders, O AS customers) DIMENSIONS (o.a AS o.id)",
      "duplicate table alias 'O' in TABLES",
    ],
    [
      "unknown member table alias",
      "TABLES (o AS orders) DIMENSIONS (ordrs.a AS id)",
      "dimension 'a' references unknown table alias 'ordrs'. Available: [o].",
    ],
    ["unknown alias suggestion", "TABLES (orders) DIMENSIONS (order.a AS id)", "Did you mean 'orders'?"],
    [
      "member names unique case-insensitively",
      "TABLES (o AS orders) FACTS (o.Net AS gross) DIMENSIONS (o.NET AS o.gross)",
      "name 'NET' is used as both a fact and a dimension",
    ],
    [
      "metric name clashes with a dimension",
      "TABLES (o AS orders) DIMENSIONS (o.n AS o.id) METRICS (o.N AS COUNT(*))",
      "name 'N' is used as both a dimension and a metric",
    ],
    [
      "relationship to unknown alias",
      "TABLES (o AS orders) RELATIONSHIPS (r AS o(customer_id) REFERENCES cust) DIMENSIONS (o.a AS o.id)",
      "relationship 'r' references unknown table alias 'cust'",
    ],
    [
      "missing primary key",
      "TABLES (o AS orders, c AS customers) RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c) DIMENSIONS (c.s AS c.segment)",
      "Table 'c' has no PRIMARY KEY declared but is referenced by FK in 'o'. Add PRIMARY KEY (cols) or UNIQUE (cols) to the TABLES clause for c.",
    ],
    [
      "FK / ref column count mismatch",
      "TABLES (o AS orders, c AS customers PRIMARY KEY (id)) RELATIONSHIPS (o_c AS o(customer_id, id) REFERENCES c(id)) DIMENSIONS (c.s AS c.segment)",
      "relationship 'o_c' has 2 foreign key column(s) but 1 referenced column(s)",
    ],
    [
      "unknown FK column",
      "TABLES (o AS orders, c AS customers PRIMARY KEY (id)) RELATIONSHIPS (o_c AS o(custmer_id) REFERENCES c) DIMENSIONS (c.s AS c.segment)",
      "relationship 'o_c': column 'custmer_id' does not exist in table 'o'. Did you mean 'customer_id'?",
    ],
    [
      "unknown PK column",
      "TABLES (o AS orders PRIMARY KEY (idd)) DIMENSIONS (o.a AS o.id)",
      "PRIMARY KEY of table 'o': column 'idd' does not exist in table 'o'. Did you mean 'id'?",
    ],
    [
      "self reference",
      "TABLES (c AS customers PRIMARY KEY (id)) RELATIONSHIPS (r AS c(region_id) REFERENCES c) DIMENSIONS (c.s AS c.segment)",
      "table 'c' cannot reference itself",
    ],
    [
      "cycle",
      "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), r AS regions PRIMARY KEY (id)) RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c, c_r AS c(region_id) REFERENCES r, r_c AS r(id) REFERENCES c) DIMENSIONS (c.s AS c.segment)",
      "cycle detected in relationships: c -> r -> c",
    ],
    [
      "orphan table",
      "TABLES (o AS orders, r AS regions) DIMENSIONS (o.a AS o.id)",
      "orphan table 'r' is not connected by any relationship",
    ],
    [
      "diamond",
      "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), z AS zones PRIMARY KEY (zone_id)) RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c, o_z AS o(zone_from) REFERENCES z, c_z AS c(region_id) REFERENCES z) DIMENSIONS (z.b AS z.borough)",
      "diamond: 'z' is reachable from multiple tables ('c', 'o'); the join path is ambiguous. Declare the target under a second table alias so it is joined once per path.",
    ],
    [
      "aggregate in a fact",
      "TABLES (o AS orders) FACTS (o.total AS SUM(o.gross)) DIMENSIONS (o.a AS o.id)",
      "Fact 'total' contains aggregate function 'sum'. Facts must be row-level expressions. Move aggregation to METRICS.",
    ],
    [
      "aggregate in a dimension",
      "TABLES (o AS orders) DIMENSIONS (o.a AS max(o.id))",
      "Dimension 'a' contains aggregate function 'max'",
    ],
    [
      "fact cycle",
      "TABLES (o AS orders) FACTS (o.a AS o.b + 1, o.b AS o.c * 2, o.c AS o.a) DIMENSIONS (o.d AS o.id)",
      "Circular dependency detected in facts: a, b, c",
    ],
    [
      "fact cycle through bare names",
      "TABLES (o AS orders) FACTS (o.fa AS fb + 1, o.fb AS fa) DIMENSIONS (o.d AS o.id)",
      "Circular dependency detected in facts: fa, fb",
    ],
    [
      "qualified cross-table column",
      `${STAR} DIMENSIONS (o.seg AS c.segment)`,
      "dimension 'seg' references 'c.segment', a column of table 'c', but a dimension expression may only reference columns of its own table ('o'). To use a value from another table, define a FACT on that table and reference the fact by name (e.g. 'c.<fact_name>').",
    ],
    [
      "bare cross-table column",
      `${STAR} METRICS (o.m AS COUNT(DISTINCT segment))`,
      "metric 'm' references 'segment', a column of table 'c', but a metric expression may only reference columns of its own table ('o')",
    ],
    [
      "unknown qualified own column",
      "TABLES (o AS orders) DIMENSIONS (o.a AS o.gros)",
      "dimension 'a' references unknown column 'o.gros'. Did you mean 'gross'?",
    ],
    [
      "derived metric unknown metric",
      "TABLES (o AS orders) METRICS (o.revenue AS SUM(o.gross), o.n AS COUNT(*), avg AS revenu / n)",
      "unknown metric 'revenu' referenced in derived metric 'avg'; did you mean 'revenue'?. Available metrics: [revenue, n, avg]",
    ],
    [
      "derived metric references a dimension",
      "TABLES (o AS orders) DIMENSIONS (o.d AS o.id) METRICS (o.n AS COUNT(*), x AS n / d)",
      "unknown metric 'd' referenced in derived metric 'x'",
    ],
    [
      "derived metric with aggregate",
      "TABLES (o AS orders) METRICS (o.n AS COUNT(*), x AS SUM(n))",
      "derived metric 'x' must not contain aggregate function 'sum'",
    ],
    [
      "derived metric cycle",
      "TABLES (o AS orders) METRICS (o.n AS COUNT(*), a AS b + n, b AS a * 2)",
      "Circular dependency detected in derived metrics: a, b",
    ],
    [
      "derived metric self reference",
      "TABLES (o AS orders) METRICS (o.n AS COUNT(*), a AS a + n)",
      "Circular dependency detected in derived metrics: a (derived metric 'a' references itself; cycle detected in derived metrics: a -> a)",
    ],
    [
      "base metric without aggregate",
      "TABLES (o AS orders) METRICS (o.m AS o.gross * 2)",
      "metric 'm' must aggregate (e.g. SUM(o.gross * 2))",
    ],
    [
      "USING unknown relationship",
      `${STAR} METRICS (o.m USING (o_cc) AS COUNT(*))`,
      "metric 'm' USING references unknown relationship 'o_cc'. Available: [o_c, c_r]. Did you mean 'o_c'?",
    ],
    [
      "USING a relationship not below the metric's table",
      `${STAR} METRICS (r.m USING (o_c) AS COUNT(*))`,
      "metric 'm' USING relationship 'o_c' starts at table 'o', which is not reachable from the metric's table 'r'",
    ],
    [
      "dimension using a metric",
      "TABLES (o AS orders) DIMENSIONS (o.d AS n > 1) METRICS (o.n AS COUNT(*))",
      "dimension 'd' references metric 'n'; dimensions are row-level expressions and cannot use metrics",
    ],
    [
      "fact using a qualified metric",
      "TABLES (o AS orders) FACTS (o.f AS o.n * 2) DIMENSIONS (o.d AS o.id) METRICS (o.n AS COUNT(*))",
      "fact 'f' references metric 'n'; facts are row-level expressions",
    ],
    [
      "window metric over an unknown metric",
      "TABLES (o AS orders) METRICS (o.m AS SUM(gross) OVER ())",
      "Window metric 'm': inner metric 'gross' not found in semantic view metrics",
    ],
    [
      "SQL-style table alias",
      "TABLES (orders AS o) DIMENSIONS (o.a AS id)",
      "table 'o' does not exist, but 'orders' does: TABLES entries are written 'alias AS table' (e.g. o AS orders)",
    ],
    [
      "other database",
      "TABLES (o AS orders) DIMENSIONS (o.a AS o.id)",
      "semantic views live in the current database 'memory'",
    ],
  ];
  for (const [what, body, message] of cases) {
    it(`rejects ${what}`, async () => {
      const name = what === "other database" ? "otherdb.main.v" : "v";
      const e = await invalid(`CREATE OR REPLACE SEMANTIC VIEW ${name} AS ${body}`);
      expect(e.message).to.include(message);
      expect(e.kind).to.equal("invalid");
    });
  }

  it("points validation errors at the offending entry", async () => {
    const e = await invalid(
      "CREATE SEMANTIC VIEW caret AS TABLES (o AS orders)\nFACTS (o.total AS SUM(o.gross))\nDIMENSIONS (o.a AS o.id)",
    );
    expect(e.message).to.equal(
      "Fact 'total' contains aggregate function 'sum'. Facts must be row-level expressions. Move aggregation to METRICS. (line 2, column 19)\nLINE 2: FACTS (o.total AS SUM(o.gross))\n                          ^",
    );
  });

  it("stores nothing when validation fails", async () => {
    await invalid(
      "CREATE SEMANTIC VIEW broken AS TABLES (o AS orders) FACTS (o.t AS SUM(o.gross)) DIMENSIONS (o.a AS o.id)",
    );
    expect(await loadDefinition(session, "broken")).to.equal(undefined);
  });
});
