/**
 * docs/reference/show-semantic-dimensions.rst, show-semantic-metrics.rst and show-semantic-facts.rst:
 * the 8 VARCHAR columns (synonyms as a JSON array, `[]` when none), sorting, the IN scopes
 * (view, ACCOUNT, DATABASE, SCHEMA), LIKE / STARTS WITH / LIMIT and their enforced order.
 */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/run.js";
import { TestSession } from "../support/session.js";

const COLUMNS = ["database_name", "schema_name", "semantic_view_name", "table_name", "name", "data_type", "synonyms", "comment"];

describe("docs/reference/SHOW SEMANTIC DIMENSIONS | METRICS | FACTS", () => {
  let session: TestSession;

  before(async () => {
    session = await TestSession.open();
    await session.query("CREATE TABLE customers (id INTEGER, name VARCHAR, region VARCHAR)");
    await session.query("CREATE TABLE orders (id INTEGER, customer_id INTEGER, order_date DATE, amount DOUBLE)");
    await runStatement(
      session,
      `CREATE SEMANTIC VIEW orders_sv AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
        FACTS (o.net AS o.amount * 0.9 WITH SYNONYMS ('net amount'))
        DIMENSIONS (
          c.region AS c.region WITH SYNONYMS ('territory', 'sales_region'),
          o.order_date AS o.order_date COMMENT = 'day ordered',
          c.customer_name AS c.name)
        METRICS (o.total_amount AS SUM(o.amount), o.order_count AS COUNT(*))`,
    );
    await runStatement(
      session,
      `CREATE SEMANTIC VIEW profit_analysis AS TABLES (li AS orders)
        METRICS (li.revenue AS SUM(li.amount), li.cost AS SUM(li.amount) * 0.5, profit AS revenue - cost, margin AS profit / revenue)`,
    );
    await session.query("CREATE SCHEMA other");
    await runStatement(session, `CREATE SEMANTIC VIEW other."schema" AS TABLES (o AS main.orders) DIMENSIONS (o.region_code AS o.id)`);
  });
  after(() => session.close());

  const show = (sql: string) => runStatement(session, sql);
  const names = async (sql: string) => (await show(sql)).rows.map((r) => `${r[2]}.${r[4]}`);

  it("one view: 8 VARCHAR columns, physical table names, sorted by name, synonyms as a JSON array", async () => {
    const r = await show("SHOW SEMANTIC DIMENSIONS IN orders_sv");
    expect(r.columns).to.deep.equal(COLUMNS);
    expect(r.types).to.deep.equal(COLUMNS.map(() => "VARCHAR"));
    expect(r.rows).to.deep.equal([
      ["memory", "main", "orders_sv", "customers", "customer_name", "", "[]", ""],
      ["memory", "main", "orders_sv", "orders", "order_date", "", "[]", "day ordered"],
      ["memory", "main", "orders_sv", "customers", "region", "", '["territory","sales_region"]', ""],
    ]);
    expect((await show("SELECT * FROM show_semantic_dimensions('orders_sv')")).rows).to.deep.equal(r.rows);
  });

  it("metrics: derived metrics have an empty table_name; facts list likewise", async () => {
    expect((await show("SHOW SEMANTIC METRICS IN profit_analysis")).rows.map((r) => [r[3], r[4]])).to.deep.equal([
      ["orders", "cost"],
      ["", "margin"],
      ["", "profit"],
      ["orders", "revenue"],
    ]);
    expect((await show("SHOW SEMANTIC FACTS IN orders_sv")).rows).to.deep.equal([["memory", "main", "orders_sv", "orders", "net", "", '["net amount"]', ""]]);
  });

  it("every view: sorted by view name, then member name", async () => {
    expect(await names("SHOW SEMANTIC METRICS")).to.deep.equal([
      "orders_sv.order_count",
      "orders_sv.total_amount",
      "profit_analysis.cost",
      "profit_analysis.margin",
      "profit_analysis.profit",
      "profit_analysis.revenue",
    ]);
  });

  it("IN ACCOUNT, IN DATABASE [name], IN SCHEMA [[db.]name]", async () => {
    const all = await names("SHOW SEMANTIC DIMENSIONS");
    expect(all).to.include("schema.region_code");
    expect(await names("SHOW SEMANTIC DIMENSIONS IN ACCOUNT")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE memory")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE elsewhere")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA other")).to.deep.equal(["schema.region_code"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA MEMORY.\"Other\"")).to.deep.equal(["schema.region_code"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA elsewhere.other")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA")).to.deep.equal(all.filter((n) => !n.startsWith("schema.")));
    // A view named like a scope keyword is quoted.
    expect(await names('SHOW SEMANTIC DIMENSIONS IN other."schema"')).to.deep.equal(["schema.region_code"]);
  });

  it("LIKE (case-insensitive), STARTS WITH (case-sensitive), LIMIT, combined in order", async () => {
    expect(await names("SHOW SEMANTIC DIMENSIONS LIKE '%NAME%'")).to.deep.equal(["orders_sv.customer_name"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS LIKE '%NAME%' IN orders_sv")).to.deep.equal(["orders_sv.customer_name"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv STARTS WITH 'order'")).to.deep.equal(["orders_sv.order_date"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv STARTS WITH 'Order'")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv LIMIT 2")).to.deep.equal(["orders_sv.customer_name", "orders_sv.order_date"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv LIMIT 0")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC METRICS LIKE '%o%' IN SCHEMA main STARTS WITH 'p' LIMIT 1")).to.deep.equal(["profit_analysis.profit"]);
    expect(await names("show semantic dimensions in orders_sv limit 1")).to.deep.equal(["orders_sv.customer_name"]);
  });

  it("errors: out-of-order clauses, a missing view", async () => {
    expect(await errorOf(session, "SHOW SEMANTIC DIMENSIONS IN orders_sv LIKE '%x%'")).to.include("LIKE must come before IN");
    expect(await errorOf(session, "SHOW SEMANTIC METRICS STARTS WITH 'a' IN orders_sv")).to.include("IN must come before STARTS WITH");
    expect(await errorOf(session, "SHOW SEMANTIC DIMENSIONS IN nonexistent_view")).to.equal("semantic view 'nonexistent_view' does not exist");
  });
});
