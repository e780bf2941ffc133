import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { loadDefinition } from "../../runtime/semantic/catalog.js";
import { type HandledStatement } from "../../runtime/semantic/semantic-layer.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { TestSession } from "./support/session.js";

const layer = createBuiltinSemanticLayer();

const CRM = `CREATE OR REPLACE SEMANTIC VIEW crm COMMENT = 'orders by customer' AS
  TABLES (
    o AS orders PRIMARY KEY (id) COMMENT = 'all orders',
    c AS customers PRIMARY KEY (id) WITH SYNONYMS ('clients', 'buyers')
  )
  RELATIONSHIPS (o_to_c AS o(customer_id) REFERENCES c)
  FACTS (o.net AS o.gross - o.discount, PRIVATE o.secret AS o.gross * 2)
  DIMENSIONS (
    c.segment AS c.segment COMMENT = 'market segment' WITH SYNONYMS = ('tier'),
    o.is_big AS o.gross > 1000 LABELS = (FILTER)
  )
  METRICS (
    PRIVATE o.net_sum AS SUM(o.net),
    o.n_orders AS COUNT(*),
    avg_net AS net_sum / n_orders COMMENT = 'mean net per order'
  )`;

/** Runs a statement through the layer the way the driver would. */
async function query(session: TestSession, sql: string): Promise<{ columns: string[]; rows: unknown[][] }> {
  const handled: HandledStatement = await layer.handle(session, sql);
  if (handled.kind === "result") return { columns: handled.columns.map((c) => c.name), rows: handled.rows };
  const r = await session.query(handled.kind === "rewritten" ? handled.sql : sql);
  return { columns: r.columns.map((c) => c.name), rows: r.rows };
}

describe("semantic view introspection", () => {
  let session: TestSession;
  let createdOn: string;

  before(async () => {
    session = await TestSession.open();
    await session.query(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, gross DECIMAL(10,2), discount DECIMAL(10,2))",
    );
    await session.query("CREATE TABLE customers (id INTEGER, segment VARCHAR)");
    await session.query("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
    await session.query("CREATE SCHEMA other");
    await query(session, CRM);
    await query(
      session,
      "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country, sales_data.region AS region) METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))",
    );
    await query(
      session,
      "CREATE SEMANTIC VIEW other.sales_archive AS TABLES (main.sales_data) DIMENSIONS (sales_data.country AS country)",
    );
    createdOn = (await loadDefinition(session, "crm"))!.createdOn;
  });
  after(() => session.close());

  const LIST_COLUMNS = ["created_on", "name", "kind", "database_name", "schema_name", "comment"];

  it("list_semantic_views() and SHOW SEMANTIC VIEWS list every view", async () => {
    const fromFunction = await query(session, "SELECT * FROM list_semantic_views()");
    expect(fromFunction.columns).to.deep.equal(LIST_COLUMNS);
    expect(fromFunction.rows.map((r) => r.slice(1))).to.deep.equal([
      ["crm", "SEMANTIC_VIEW", "memory", "main", "orders by customer"],
      ["sales", "SEMANTIC_VIEW", "memory", "main", ""],
      ["sales_archive", "SEMANTIC_VIEW", "memory", "other", ""],
    ]);
    expect(fromFunction.rows[0]![0]).to.equal(createdOn);
    const show = await query(session, "SHOW SEMANTIC VIEWS");
    expect(show).to.deep.equal(fromFunction);
  });

  it("SHOW SEMANTIC VIEWS filters with LIKE (case-insensitive), IN SCHEMA, STARTS WITH and LIMIT", async () => {
    const names = async (sql: string) => (await query(session, sql)).rows.map((r) => r[1]);
    expect(await names("SHOW SEMANTIC VIEWS LIKE 'SAL%'")).to.deep.equal(["sales", "sales_archive"]);
    expect(await names("SHOW SEMANTIC VIEWS LIKE '_rm'")).to.deep.equal(["crm"]);
    expect(await names("SHOW SEMANTIC VIEWS STARTS WITH 'sales'")).to.deep.equal(["sales", "sales_archive"]);
    expect(await names("SHOW SEMANTIC VIEWS STARTS WITH 'Sales'")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC VIEWS IN SCHEMA other")).to.deep.equal(["sales_archive"]);
    expect(await names("SHOW SEMANTIC VIEWS LIMIT 1")).to.deep.equal(["crm"]);
    expect(await names("SHOW SEMANTIC VIEWS LIMIT 5 FROM 'sales'")).to.deep.equal(["sales", "sales_archive"]);
    expect(await names("SHOW SEMANTIC VIEWS LIMIT 1 FROM 'd'")).to.deep.equal(["sales"]);
    expect(await names("SHOW SEMANTIC VIEWS LIKE '%' STARTS WITH 's' LIMIT 1")).to.deep.equal(["sales"]);
  });

  it("SHOW TERSE SEMANTIC VIEWS omits the comment", async () => {
    const r = await query(session, "SHOW TERSE SEMANTIC VIEWS LIKE 'crm'");
    expect(r.columns).to.deep.equal(LIST_COLUMNS.slice(0, 5));
    expect(r.rows).to.deep.equal([[createdOn, "crm", "SEMANTIC_VIEW", "memory", "main"]]);
  });

  it("table functions work inside larger SELECTs (WHERE, aggregates, joins, aliases)", async () => {
    expect(
      (await query(session, "SELECT name FROM list_semantic_views() WHERE schema_name = 'main' ORDER BY name DESC"))
        .rows,
    ).to.deep.equal([["sales"], ["crm"]]);
    expect(
      (await query(session, "SELECT count(*) AS n FROM list_semantic_views() v WHERE v.comment <> ''")).rows,
    ).to.deep.equal([[1n]]);
    expect(
      (
        await query(
          session,
          "SELECT l.name, count(*) FROM list_semantic_views() AS l JOIN show_columns_in_semantic_view('sales') s ON s.semantic_view_name = l.name GROUP BY ALL",
        )
      ).rows,
    ).to.deep.equal([["sales", 4n]]);
    expect(
      (await query(session, "SELECT list_semantic_views.name FROM list_semantic_views() WHERE name = 'crm'")).rows,
    ).to.deep.equal([["crm"]]);
  });

  it("describe_semantic_view / DESCRIBE SEMANTIC VIEW give the extension's rows", async () => {
    const r = await query(session, "DESCRIBE SEMANTIC VIEW crm");
    expect(r.columns).to.deep.equal(["object_kind", "object_name", "parent_entity", "property", "property_value"]);
    expect(r.rows).to.deep.equal([
      ["SEMANTIC_VIEW", "crm", "", "COMMENT", "orders by customer"],
      ["TABLE", "orders", "", "BASE_TABLE_DATABASE_NAME", "memory"],
      ["TABLE", "orders", "", "BASE_TABLE_SCHEMA_NAME", "main"],
      ["TABLE", "orders", "", "BASE_TABLE_NAME", "orders"],
      ["TABLE", "orders", "", "PRIMARY_KEY", '["id"]'],
      ["TABLE", "orders", "", "COMMENT", "all orders"],
      ["TABLE", "customers", "", "BASE_TABLE_DATABASE_NAME", "memory"],
      ["TABLE", "customers", "", "BASE_TABLE_SCHEMA_NAME", "main"],
      ["TABLE", "customers", "", "BASE_TABLE_NAME", "customers"],
      ["TABLE", "customers", "", "PRIMARY_KEY", '["id"]'],
      ["TABLE", "customers", "", "SYNONYMS", '["clients","buyers"]'],
      ["RELATIONSHIP", "o_to_c", "orders", "TABLE", "orders"],
      ["RELATIONSHIP", "o_to_c", "orders", "REF_TABLE", "customers"],
      ["RELATIONSHIP", "o_to_c", "orders", "FOREIGN_KEY", '["customer_id"]'],
      ["RELATIONSHIP", "o_to_c", "orders", "REF_KEY", '["id"]'],
      ["FACT", "net", "orders", "TABLE", "orders"],
      ["FACT", "net", "orders", "EXPRESSION", "o.gross - o.discount"],
      ["FACT", "net", "orders", "DATA_TYPE", ""],
      ["FACT", "net", "orders", "ACCESS_MODIFIER", "PUBLIC"],
      ["FACT", "secret", "orders", "TABLE", "orders"],
      ["FACT", "secret", "orders", "EXPRESSION", "o.gross * 2"],
      ["FACT", "secret", "orders", "DATA_TYPE", ""],
      ["FACT", "secret", "orders", "ACCESS_MODIFIER", "PRIVATE"],
      ["DIMENSION", "segment", "customers", "TABLE", "customers"],
      ["DIMENSION", "segment", "customers", "EXPRESSION", "c.segment"],
      ["DIMENSION", "segment", "customers", "DATA_TYPE", ""],
      ["DIMENSION", "segment", "customers", "COMMENT", "market segment"],
      ["DIMENSION", "segment", "customers", "SYNONYMS", '["tier"]'],
      ["DIMENSION", "is_big", "orders", "TABLE", "orders"],
      ["DIMENSION", "is_big", "orders", "EXPRESSION", "o.gross > 1000"],
      ["DIMENSION", "is_big", "orders", "DATA_TYPE", ""],
      ["DIMENSION", "is_big", "orders", "LABELS", '["FILTER"]'],
      ["METRIC", "net_sum", "orders", "TABLE", "orders"],
      ["METRIC", "net_sum", "orders", "EXPRESSION", "SUM(o.net)"],
      ["METRIC", "net_sum", "orders", "DATA_TYPE", ""],
      ["METRIC", "net_sum", "orders", "ACCESS_MODIFIER", "PRIVATE"],
      ["METRIC", "n_orders", "orders", "TABLE", "orders"],
      ["METRIC", "n_orders", "orders", "EXPRESSION", "COUNT(*)"],
      ["METRIC", "n_orders", "orders", "DATA_TYPE", ""],
      ["METRIC", "n_orders", "orders", "ACCESS_MODIFIER", "PUBLIC"],
      ["DERIVED_METRIC", "avg_net", "", "EXPRESSION", "net_sum / n_orders"],
      ["DERIVED_METRIC", "avg_net", "", "DATA_TYPE", ""],
      ["DERIVED_METRIC", "avg_net", "", "COMMENT", "mean net per order"],
      ["DERIVED_METRIC", "avg_net", "", "ACCESS_MODIFIER", "PUBLIC"],
    ]);
    expect(await query(session, "SELECT * FROM describe_semantic_view('crm')")).to.deep.equal(r);
    expect(await query(session, "DESC SEMANTIC VIEW CRM")).to.deep.equal(r);
  });

  it("DESCRIBE resolves schema-qualified table references", async () => {
    const r = await query(
      session,
      "SELECT property, property_value FROM describe_semantic_view('other.sales_archive') WHERE object_kind = 'TABLE'",
    );
    expect(r.rows).to.deep.equal([
      ["BASE_TABLE_DATABASE_NAME", "memory"],
      ["BASE_TABLE_SCHEMA_NAME", "main"],
      ["BASE_TABLE_NAME", "sales_data"],
    ]);
  });

  it("show_columns_in_semantic_view / SHOW COLUMNS IN SEMANTIC VIEW exclude private members", async () => {
    const r = await query(session, "SHOW COLUMNS IN SEMANTIC VIEW crm");
    expect(r.columns).to.deep.equal([
      "database_name",
      "schema_name",
      "semantic_view_name",
      "column_name",
      "data_type",
      "kind",
      "expression",
      "comment",
    ]);
    expect(r.rows).to.deep.equal([
      ["memory", "main", "crm", "avg_net", "", "DERIVED_METRIC", "net_sum / n_orders", "mean net per order"],
      ["memory", "main", "crm", "is_big", "", "DIMENSION", "o.gross > 1000", ""],
      ["memory", "main", "crm", "segment", "", "DIMENSION", "c.segment", "market segment"],
      ["memory", "main", "crm", "net", "", "FACT", "o.gross - o.discount", ""],
      ["memory", "main", "crm", "n_orders", "", "METRIC", "COUNT(*)", ""],
    ]);
    expect(await query(session, "SELECT * FROM show_columns_in_semantic_view('crm')")).to.deep.equal(r);
  });

  it("show_semantic_dimensions / metrics / facts and their SHOW forms", async () => {
    const cols = [
      "database_name",
      "schema_name",
      "semantic_view_name",
      "table_name",
      "name",
      "data_type",
      "synonyms",
      "comment",
    ];
    const dims = await query(session, "SELECT * FROM show_semantic_dimensions('crm')");
    expect(dims.columns).to.deep.equal(cols);
    expect(dims.rows).to.deep.equal([
      ["memory", "main", "crm", "orders", "is_big", "", "[]", ""],
      ["memory", "main", "crm", "customers", "segment", "", '["tier"]', "market segment"],
    ]);
    expect(await query(session, "SHOW SEMANTIC DIMENSIONS IN crm")).to.deep.equal(dims);
    expect((await query(session, "SELECT name, table_name FROM show_semantic_metrics('crm')")).rows).to.deep.equal([
      ["avg_net", ""],
      ["n_orders", "orders"],
    ]);
    expect((await query(session, "SHOW SEMANTIC FACTS IN crm")).rows.map((r) => r[4])).to.deep.equal(["net"]);
    expect((await query(session, "SHOW SEMANTIC METRICS LIKE '%e%'")).rows.map((r) => `${r[2]}.${r[4]}`)).to.deep.equal(
      ["crm.avg_net", "crm.n_orders", "sales.revenue"],
    );
    expect(
      (
        await query(
          session,
          "SELECT semantic_view_name, name FROM show_semantic_dimensions_all() WHERE name = 'country'",
        )
      ).rows,
    ).to.deep.equal([
      ["sales", "country"],
      ["sales_archive", "country"],
    ]);
  });

  it("introspection of a missing view is a not_found error", async () => {
    for (const sql of [
      "DESCRIBE SEMANTIC VIEW nope",
      "SELECT * FROM describe_semantic_view('nope')",
      "SHOW COLUMNS IN SEMANTIC VIEW nope",
      "SELECT get_ddl('SEMANTIC_VIEW', 'nope')",
    ]) {
      try {
        await query(session, sql);
        expect.fail(`expected an error: ${sql}`);
      } catch (e) {
        expect(e).to.be.instanceOf(SemanticViewError);
        expect((e as SemanticViewError).kind).to.equal("not_found");
        expect((e as Error).message).to.equal("semantic view 'nope' does not exist");
      }
    }
  });

  it("escapes values in rewritten relations", async () => {
    await query(
      session,
      "CREATE OR REPLACE SEMANTIC VIEW quoting COMMENT = 'it''s \"quoted\"; -- not a comment' AS TABLES (sales_data) DIMENSIONS (sales_data.c AS country || ''';''')",
    );
    expect(
      (await query(session, "SELECT comment FROM list_semantic_views() WHERE name = 'quoting'")).rows,
    ).to.deep.equal([[`it's "quoted"; -- not a comment`]]);
    expect(
      (await query(session, "SELECT expression FROM show_columns_in_semantic_view('quoting')")).rows,
    ).to.deep.equal([["country || ''';'''"]]);
    await query(session, "DROP SEMANTIC VIEW quoting");
  });

  it("DESCRIBE falls back to the written reference when the table did not exist at CREATE", async () => {
    await query(
      session,
      'CREATE SEMANTIC VIEW later AS TABLES (f AS other."Future Facts", g AS memory.other.gone PRIMARY KEY (id)) RELATIONSHIPS (r AS f(g_id) REFERENCES g(id)) DIMENSIONS (f.a AS f.a)',
    );
    const r = await query(
      session,
      "SELECT object_name, property, property_value FROM describe_semantic_view('later') WHERE object_kind = 'TABLE'",
    );
    expect(r.rows).to.deep.equal([
      ["Future Facts", "BASE_TABLE_DATABASE_NAME", "memory"],
      ["Future Facts", "BASE_TABLE_SCHEMA_NAME", "other"],
      ["Future Facts", "BASE_TABLE_NAME", "Future Facts"],
      ["gone", "BASE_TABLE_DATABASE_NAME", "memory"],
      ["gone", "BASE_TABLE_SCHEMA_NAME", "other"],
      ["gone", "BASE_TABLE_NAME", "gone"],
      ["gone", "PRIMARY_KEY", '["id"]'],
    ]);
    await query(session, "DROP SEMANTIC VIEW later");
  });

  it("table function arguments must be literals", async () => {
    for (const [sql, message] of [
      [
        "SELECT * FROM describe_semantic_view(name)",
        "describe_semantic_view() arguments must be literals in the built-in semantic engine, found 'name'",
      ],
      [
        "SELECT * FROM describe_semantic_view('crm' 'x')",
        "describe_semantic_view() arguments must be literals in the built-in semantic engine, found ''x''",
      ],
      [
        "SELECT * FROM describe_semantic_view()",
        "describe_semantic_view() expects the semantic view name as its first argument",
      ],
    ] as const) {
      try {
        await query(session, sql);
        expect.fail(`expected an error: ${sql}`);
      } catch (e) {
        expect((e as Error).message, sql).to.equal(message);
      }
    }
  });

  it("an empty catalog gives typed empty relations", async () => {
    await using s = await TestSession.open();
    const r = await query(s, "SELECT * FROM list_semantic_views()");
    expect(r).to.deep.equal({ columns: LIST_COLUMNS, rows: [] });
    const typed = await s.query(
      ((await layer.handle(s, "SELECT * FROM list_semantic_views()")) as { sql: string }).sql,
    );
    expect(typed.columns.map((c) => c.type)).to.deep.equal(LIST_COLUMNS.map(() => "VARCHAR"));
  });
});

describe("get_ddl", () => {
  let session: TestSession;
  before(async () => {
    session = await TestSession.open();
    await session.query(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, gross DECIMAL(10,2), discount DECIMAL(10,2))",
    );
    await session.query("CREATE TABLE customers (id INTEGER, segment VARCHAR)");
  });
  after(() => session.close());

  it("renders a CREATE OR REPLACE statement", async () => {
    await query(session, CRM);
    const r = await query(session, "SELECT get_ddl('SEMANTIC_VIEW', 'crm') AS ddl");
    expect(r.columns).to.deep.equal(["ddl"]);
    expect(r.rows[0]![0]).to.equal(`CREATE OR REPLACE SEMANTIC VIEW crm COMMENT = 'orders by customer' AS
TABLES (
    o AS orders PRIMARY KEY (id) COMMENT = 'all orders',
    c AS customers PRIMARY KEY (id) WITH SYNONYMS = ('clients', 'buyers')
)
RELATIONSHIPS (
    o_to_c AS o(customer_id) REFERENCES c(id)
)
FACTS (
    o.net AS o.gross - o.discount,
    PRIVATE o.secret AS o.gross * 2
)
DIMENSIONS (
    c.segment AS c.segment COMMENT = 'market segment' WITH SYNONYMS = ('tier'),
    o.is_big AS o.gross > 1000 LABELS = (FILTER)
)
METRICS (
    PRIVATE o.net_sum AS SUM(o.net),
    o.n_orders AS COUNT(*),
    avg_net AS net_sum / n_orders COMMENT = 'mean net per order'
)`);
    const qualified = await query(session, "SELECT get_ddl('semantic_view', 'crm', true)");
    expect(String(qualified.rows[0]![0])).to.match(/^CREATE OR REPLACE SEMANTIC VIEW memory\.main\.crm COMMENT/);
  });

  it("round-trips: executing get_ddl's output recreates an identical definition", async () => {
    const views = [
      CRM,
      // Quoted and keyword-like names, comments and quotes inside expressions.
      `CREATE OR REPLACE SEMANTIC VIEW "Odd View" COMMENT = 'a ''quoted'' comment' AS
      TABLES (x AS orders PRIMARY KEY (id) UNIQUE (customer_id) UNIQUE (id, gross) WITH SYNONYMS ('it''s'))
      FACTS (x."Select" AS x.gross * 2)
      DIMENSIONS (x."Group" AS x.customer_id, x."order" AS x.gross::VARCHAR || 'it''s' /* kept */)
      METRICS (x."Comment" AS SUM("Select"), "Derived Metric" AS "Comment" * 2)`,
    ];
    for (const ddl of views) {
      const created = await query(session, ddl);
      const name = String(created.rows[0]![0]);
      const before = await loadDefinition(session, name);
      const rendered = String(
        (await query(session, `SELECT get_ddl('SEMANTIC_VIEW', '${name.replace(/'/g, "''")}')`)).rows[0]![0],
      );
      await query(session, `DROP SEMANTIC VIEW "${name}"`);
      await query(session, rendered);
      const after = await loadDefinition(session, name);
      const strip = (d: typeof before) => ({ ...d, createdOn: undefined });
      expect(strip(after)).to.deep.equal(strip(before));
      const again = String(
        (await query(session, `SELECT get_ddl('SEMANTIC_VIEW', '${name.replace(/'/g, "''")}')`)).rows[0]![0],
      );
      expect(again).to.equal(rendered);
    }
  });

  it("rejects other object types as the extension does", async () => {
    try {
      await layer.handle(session, "SELECT get_ddl('TABLE', 'orders')");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).message).to.equal(
        "GET_DDL: unsupported object type 'TABLE'. Only 'SEMANTIC_VIEW' is supported.",
      );
    }
  });
});

describe("dimensions valid for a metric", () => {
  let session: TestSession;
  before(async () => {
    session = await TestSession.open();
    for (const sql of [
      "CREATE TABLE lines (id INTEGER, order_id INTEGER, qty INTEGER)",
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, status VARCHAR)",
      "CREATE TABLE customers (id INTEGER, segment VARCHAR)",
      "CREATE TABLE profiles (customer_id INTEGER, tier VARCHAR)",
    ]) {
      await session.query(sql);
    }
    await query(
      session,
      `CREATE SEMANTIC VIEW shop AS
        TABLES (l AS lines PRIMARY KEY (id), o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), p AS profiles PRIMARY KEY (customer_id))
        RELATIONSHIPS (l_o AS l(order_id) REFERENCES o, o_c AS o(customer_id) REFERENCES c, c_p AS c(id) REFERENCES p(customer_id))
        DIMENSIONS (l.line_id AS l.id, o.status AS o.status, c.segment AS c.segment, p.tier AS p.tier)
        METRICS (l.units AS SUM(l.qty), o.orders AS COUNT(*), c.customers AS COUNT(*), p.tiers AS COUNT(DISTINCT p.tier), per_order AS units / orders)`,
    );
  });
  after(() => session.close());

  it("lists the dimensions at the metric's grain or coarser (SHOW ... FOR METRIC and the function)", async () => {
    const r = await query(session, "SHOW SEMANTIC DIMENSIONS IN shop FOR METRIC orders");
    expect(r.columns).to.deep.equal(["table_name", "name", "data_type", "required"]);
    expect(r.rows).to.deep.equal([
      ["customers", "segment", "", false],
      ["orders", "status", "", false],
      ["profiles", "tier", "", false],
    ]);
    expect(
      (await query(session, "SELECT name, required FROM show_semantic_dimensions_for_metric('shop', 'units')")).rows,
    ).to.deep.equal([
      ["segment", false],
      ["line_id", false],
      ["status", false],
      ["tier", false],
    ]);
    expect(
      (await query(session, "SELECT name FROM show_semantic_dimensions_for_metric('shop', 'customers')")).rows,
    ).to.deep.equal([["segment"], ["tier"]]);
    // One-to-one relationships are safe in both directions.
    expect(
      (await query(session, "SELECT name FROM show_semantic_dimensions_for_metric('shop', 'tiers')")).rows,
    ).to.deep.equal([["segment"], ["tier"]]);
    // A derived metric: dimensions valid for any of its metrics (the documented union).
    expect(
      (await query(session, "SELECT name FROM show_semantic_dimensions_for_metric('shop', 'per_order')")).rows,
    ).to.deep.equal([["segment"], ["line_id"], ["status"], ["tier"]]);
  });

  it("rejects an unknown metric with a suggestion", async () => {
    try {
      await query(session, "SHOW SEMANTIC DIMENSIONS IN shop FOR METRIC order");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).message).to.equal("metric 'order' not found in semantic view 'shop'. Did you mean 'orders'?");
    }
  });
});
