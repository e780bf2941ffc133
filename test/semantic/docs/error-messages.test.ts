/**
 * docs/reference/error-messages.rst: the same conditions raise, and each message carries the
 * page's key phrase with the member or table name. The page exists in an older and a v0.12 version
 * whose wordings differ; the v0.12 text is asserted, and messages keep the older phrase after it.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/error-messages", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR, amount DOUBLE, amount_category VARCHAR);
      CREATE TABLE customers (id INTEGER, sales_region VARCHAR);
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, status VARCHAR);
      CREATE SEMANTIC VIEW sales AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, li_to_order AS li(order_id) REFERENCES o)
        FACTS (PRIVATE o.secret AS o.amount * 2, o.net AS o.amount)
        DIMENSIONS (o.region AS o.region, c.sales_region AS c.sales_region, li.status AS li.status)
        METRICS (o.revenue AS SUM(o.amount), o.order_count AS COUNT(*), PRIVATE o.hidden AS SUM(o.amount))`);
  });
  after(() => db.close());

  const ddl: [string, string, string][] = [
    [
      "duplicate dimension names",
      "TABLES (o AS orders, c AS customers PRIMARY KEY (id)) RELATIONSHIPS (r AS o(customer_id) REFERENCES c) DIMENSIONS (o.region AS o.region, c.Region AS c.sales_region)",
      "duplicate name 'Region': dimension 'Region' collides with dimension 'region' -- dimension, metric, and fact names share one namespace and are case-insensitive",
    ],
    [
      "duplicate metric names (older wording kept)",
      "TABLES (o AS orders) METRICS (o.total AS SUM(o.amount), o.TOTAL AS COUNT(*))",
      "duplicate metric name 'TOTAL'",
    ],
    [
      "a dimension and a metric colliding",
      "TABLES (o AS orders) DIMENSIONS (o.amount AS o.amount_category) METRICS (o.Amount AS SUM(o.amount))",
      "duplicate name 'Amount': metric 'Amount' collides with dimension 'amount'",
    ],
    [
      "self-reference",
      "TABLES (o AS orders PRIMARY KEY (id)) RELATIONSHIPS (r AS o(customer_id) REFERENCES o) DIMENSIONS (o.r AS o.region)",
      "table 'o' cannot reference itself",
    ],
    [
      "cycle",
      "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id)) RELATIONSHIPS (a AS o(customer_id) REFERENCES c, b AS c(id) REFERENCES o) DIMENSIONS (o.r AS o.region)",
      "cycle detected in relationships: o -> c -> o",
    ],
    [
      "diamond",
      "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), li AS line_items PRIMARY KEY (id)) RELATIONSHIPS (a AS li(order_id) REFERENCES o, b AS o(customer_id) REFERENCES c, d AS li(order_id) REFERENCES c) DIMENSIONS (o.r AS o.region)",
      "diamond: 'c' is reachable from multiple tables ('li', 'o'); the join path is ambiguous. Declare the target under a second table alias so it is joined once per path.",
    ],
    [
      "orphan table",
      "TABLES (o AS orders PRIMARY KEY (id), oo AS orders PRIMARY KEY (id)) DIMENSIONS (o.r AS o.region)",
      "orphan table 'oo' is not connected by any relationship; did you mean 'o'?",
    ],
    [
      "key missing on a relationship target",
      "TABLES (o AS orders, c AS customers) RELATIONSHIPS (r AS o(customer_id) REFERENCES c(id)) DIMENSIONS (o.r AS o.region)",
      "Table 'c' has no PRIMARY KEY declared but is referenced by FK in 'o'. Add PRIMARY KEY (cols) or UNIQUE (cols) to the TABLES clause for c.",
    ],
    [
      "another table's column",
      "TABLES (o AS orders, c AS customers PRIMARY KEY (id)) RELATIONSHIPS (r AS o(customer_id) REFERENCES c) FACTS (o.seg AS c.sales_region) DIMENSIONS (o.r AS o.region)",
      "fact 'seg' references 'c.sales_region', a column of table 'c', but a fact expression may only reference columns of its own table ('o'). To use a value from another table, define a FACT on that table and reference the fact by name (e.g. 'c.<fact_name>').",
    ],
    [
      "unknown metric in a derived metric",
      "TABLES (o AS orders) METRICS (o.revenue AS SUM(o.amount), share AS revenu / 2)",
      "unknown metric 'revenu' referenced in derived metric 'share'; did you mean 'revenue'?. Available metrics: [revenue, share]",
    ],
    [
      "aggregate in FACTS",
      "TABLES (o AS orders) FACTS (o.total AS SUM(o.amount)) DIMENSIONS (o.r AS o.region)",
      "Fact 'total' contains aggregate function 'sum'. Facts must be row-level expressions. Move aggregation to METRICS.",
    ],
    [
      "circular facts",
      "TABLES (o AS orders) FACTS (o.a AS o.b + 1, o.b AS o.a + 1) DIMENSIONS (o.r AS o.region)",
      "cycle detected in facts: a -> b -> a",
    ],
    [
      "circular derived metrics",
      "TABLES (o AS orders) METRICS (o.n AS COUNT(*), x AS y + n, y AS x + n)",
      "cycle detected in derived metrics: x -> y -> x",
    ],
  ];
  for (const [what, body, message] of ddl) {
    it(`DDL: ${what}`, async () => {
      const e = await db.error(`CREATE SEMANTIC VIEW bad AS ${body}`);
      expect(e.message).to.contain(message);
    });
  }

  const parse: [string, string, string][] = [
    ["missing view name", "CREATE SEMANTIC VIEW", "Missing view name after DDL prefix."],
    [
      "AS read as the name",
      "CREATE SEMANTIC VIEW AS TABLES (o AS orders) DIMENSIONS (o.r AS o.region)",
      "Expected 'AS' or 'FROM YAML' after view name. Use: CREATE SEMANTIC VIEW",
    ],
    [
      "expected AS or FROM YAML",
      "CREATE SEMANTIC VIEW v TABLES (o AS orders) DIMENSIONS (o.r AS o.region)",
      "Expected 'AS' or 'FROM YAML' after view name.",
    ],
    ["missing TABLES clause", "CREATE SEMANTIC VIEW v AS", "Missing required clause 'TABLES'."],
    [
      "no DIMENSIONS or METRICS",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders)",
      "At least one of 'DIMENSIONS' or 'METRICS' is required.",
    ],
    [
      "unknown clause keyword",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders) DIMENSION (o.r AS o.region)",
      "Unknown clause keyword 'DIMENSION'; did you mean 'DIMENSIONS'?",
    ],
    [
      "duplicate clause",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders) DIMENSIONS (o.r AS o.region) DIMENSIONS (o.s AS o.region)",
      "Duplicate clause keyword 'DIMENSIONS'.",
    ],
    [
      "clause out of order",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders) DIMENSIONS (o.r AS o.region) FACTS (o.f AS o.amount)",
      "Clause 'FACTS' appears out of order; clauses must appear as: TABLES, RELATIONSHIPS (optional), FACTS (optional), DIMENSIONS (optional), METRICS (optional), MATERIALIZATIONS (optional).",
    ],
    [
      "LABELS on a metric",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders) METRICS (o.m AS COUNT(*) LABELS = (FILTER))",
      "LABELS is not valid on a metric; it applies to facts and dimensions",
    ],
    [
      "unclosed parenthesis",
      "CREATE SEMANTIC VIEW v AS TABLES (o AS orders) DIMENSIONS (o.r AS o.region",
      "Unclosed '(' for clause 'DIMENSIONS'.",
    ],
  ];
  for (const [what, sql, message] of parse) {
    it(`parse: ${what}`, async () => {
      const e = await db.error(sql);
      expect(e.message).to.contain(message);
    });
  }

  it("near-miss DDL: a misspelled prefix suggests the statement", async () => {
    expect(
      (await db.error("CREAT SEMANTIC VIEW v AS TABLES (o AS orders) DIMENSIONS (o.r AS o.region)")).message,
    ).to.equal("Did you mean 'CREATE SEMANTIC VIEW'?");
    expect((await db.error("DROP SEMANTC VIEW sales")).message).to.equal("Did you mean 'DROP SEMANTIC VIEW'?");
    // Valid statements that start alike are not near misses.
    await db.run("CREATE VIEW plain_view AS SELECT 1 AS one; DROP VIEW plain_view");
    expect((await db.run("DESC SEMANTIC VIEW sales")).rows.length).to.be.greaterThan(0);
  });

  const query: [string, string, string][] = [
    [
      "view not found",
      "semantic_view('sales_x', metrics := ['revenue'])",
      "Semantic view 'sales_x' not found. Did you mean 'sales'? Available views: [sales]. Run SHOW SEMANTIC VIEWS to see all registered views.",
    ],
    [
      "empty request",
      "semantic_view('sales')",
      "semantic view 'sales': specify at least dimensions := [...], metrics := [...], or facts := [...].",
    ],
    [
      "unknown dimension",
      "semantic_view('sales', dimensions := ['regin'])",
      "semantic view 'sales': unknown dimension 'regin'. Available: [",
    ],
    [
      "unknown metric",
      "semantic_view('sales', metrics := ['revenu'])",
      "semantic view 'sales': unknown metric 'revenu'. Available: [revenue, order_count]. Did you mean 'revenue'?",
    ],
    [
      "duplicate dimension",
      "semantic_view('sales', dimensions := ['region', 'region'])",
      "semantic view 'sales': duplicate dimension 'region'",
    ],
    [
      "duplicate metric",
      "semantic_view('sales', metrics := ['revenue', 'REVENUE'])",
      "semantic view 'sales': duplicate metric 'revenue'",
    ],
    [
      "fan trap",
      "semantic_view('sales', dimensions := ['status'], metrics := ['order_count'])",
      "semantic view 'sales': fan trap detected -- metric 'order_count' (table 'o') would be duplicated when joined to dimension 'status' (table 'li') via relationship 'li_to_order' (many-to-one cardinality, inferred: FK is not PK/UNIQUE). This would inflate aggregation results. Remove the dimension, use a metric from the same table, or restructure the relationship.",
    ],
    [
      "private metric",
      "semantic_view('sales', metrics := ['hidden'])",
      "semantic view 'sales': metric 'hidden' is private and cannot be queried directly. Private metrics can only be used in derived metric expressions.",
    ],
    [
      "private fact",
      "semantic_view('sales', facts := ['secret'])",
      "semantic view 'sales': fact 'secret' is private and cannot be queried directly. Private facts can only be used in derived expressions.",
    ],
    [
      "facts and metrics",
      "semantic_view('sales', facts := ['net'], metrics := ['revenue'])",
      "semantic view 'sales': cannot combine facts and metrics in the same query. Use facts := [...] OR metrics := [...], not both.",
    ],
    [
      "unknown fact",
      "semantic_view('sales', facts := ['nett'])",
      "semantic view 'sales': unknown fact 'nett'. Available: [net]. Did you mean 'net'?",
    ],
    [
      "duplicate fact",
      "semantic_view('sales', facts := ['net', 'net'])",
      "semantic view 'sales': duplicate fact 'net'",
    ],
    [
      "unqualified wildcard",
      "semantic_view('sales', dimensions := ['*'])",
      "unqualified wildcard '*' is not supported. Use table_alias.* to select all items for a specific table.",
    ],
    [
      "unknown wildcard alias",
      "semantic_view('sales', dimensions := ['x.*'])",
      "unknown table alias 'x' in wildcard 'x.*'. Available aliases: [o, c, li]",
    ],
  ];
  for (const [what, call, message] of query) {
    it(`query: ${what}`, async () => {
      const e = await db.error(`SELECT * FROM ${call}`);
      expect(e.message).to.contain(message);
    });
  }

  it("query: ambiguous dimension path names the table and both relationships", async () => {
    await db.run(`
      CREATE TABLE airports (code VARCHAR, city VARCHAR);
      CREATE TABLE flights (id INTEGER, dep VARCHAR, arr VARCHAR);
      CREATE SEMANTIC VIEW trips AS
        TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code))
        RELATIONSHIPS (dep_airport AS f(dep) REFERENCES a, arr_airport AS f(arr) REFERENCES a)
        DIMENSIONS (a.city AS a.city)
        METRICS (f.flights AS COUNT(*), f.departures USING (dep_airport) AS COUNT(*))`);
    const e = await db.error("SELECT * FROM semantic_view('trips', dimensions := ['city'], metrics := ['flights'])");
    expect(e.message).to.contain(
      "semantic view 'trips': dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [dep_airport, arr_airport]. Specify a metric with USING to disambiguate, or use a dimension from a non-ambiguous table.",
    );
  });

  it("query: COUNT(*) on a joined table without a PRIMARY KEY", async () => {
    await db.run(`CREATE SEMANTIC VIEW keyless AS
      TABLES (o AS orders PRIMARY KEY (id), li AS line_items)
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
      DIMENSIONS (o.region AS o.region)
      METRICS (li.line_count AS COUNT(*))`);
    const e = await db.error(
      "SELECT * FROM semantic_view('keyless', dimensions := ['region'], metrics := ['line_count'])",
    );
    expect(e.message).to.contain(
      "semantic view 'keyless': metric 'line_count' uses COUNT(*) on joined table 'li'. The generated LEFT JOIN produces one NULL-extended row per base-table row with no match in 'li', which COUNT(*) would count",
    );
    expect(e.message).to.contain("Add PRIMARY KEY (cols) to 'li' or use an explicit column: COUNT(li.<column>).");
  });

  it("query: a metric's fact reached across a fan-out", async () => {
    await db.run(`CREATE SEMANTIC VIEW fact_fan AS
      TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
      FACTS (li.item_flag AS li.status = 'open')
      DIMENSIONS (o.region AS o.region)
      METRICS (o.open_items AS COUNT_IF(li.item_flag))`);
    const e = await db.error("SELECT * FROM semantic_view('fact_fan', metrics := ['open_items'])");
    expect(e.message).to.contain(
      "semantic view 'fact_fan': fan trap detected -- 'open_items' (table 'o') references the fact 'item_flag' on table 'li', and relationship 'li_to_order' fans out on the way there, so joining it would multiply 'open_items's rows.",
    );
  });

  it("query: facts on incompatible table paths", async () => {
    await db.run(`CREATE SEMANTIC VIEW branches AS
      TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, order_customer AS o(customer_id) REFERENCES c)
      FACTS (li.item_status AS li.status, o.order_amount AS o.amount)
      DIMENSIONS (c.sales_region AS c.sales_region)`);
    // A chain (line item -> order -> customer) is many-to-one all the way: allowed.
    await db.run(
      "SELECT * FROM semantic_view('branches', dimensions := ['sales_region'], facts := ['item_status', 'order_amount'])",
    );
    await db.run(`CREATE TABLE shipments (id INTEGER, order_id INTEGER, carrier VARCHAR);
      CREATE SEMANTIC VIEW forks AS
      TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), s AS shipments PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, s_to_order AS s(order_id) REFERENCES o)
      FACTS (li.item_status AS li.status)
      DIMENSIONS (s.carrier AS s.carrier)`);
    const e = await db.error(
      "SELECT * FROM semantic_view('forks', dimensions := ['carrier'], facts := ['item_status'])",
    );
    expect(e.message).to.contain(
      "semantic view 'forks': fact query references objects from incompatible table paths -- neither table 's' nor 'li' can be reached from the other without crossing a one-to-many relationship, so joining them would duplicate the rows returned",
    );
  });
});
