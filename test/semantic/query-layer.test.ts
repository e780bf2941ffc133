/**
 * End to end through the built-in layer: CREATE SEMANTIC VIEW as DDL, then semantic_view() queries
 * rewritten by the layer and run on the same DuckDB connection.
 */
import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { TestSession } from "./support/session.js";
import { seedShop } from "./support/shop-fixture.js";

describe("semantic_view() through the built-in layer", () => {
  const layer = createBuiltinSemanticLayer();
  let session: TestSession;

  async function exec(sql: string) {
    const outcome = await layer.handle(session, sql);
    if (outcome.kind === "result") return { columns: outcome.columns, rows: outcome.rows };
    return session.query(outcome.kind === "rewritten" ? outcome.sql : sql);
  }

  before(async () => {
    session = await TestSession.open();
    await seedShop(session);
    await exec(`CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)`);
    await exec(
      `INSERT INTO sales_data VALUES (100, 60, 'DE', 'EU'), (50, 20, 'DE', 'EU'), (300, 100, 'US', 'NA'), (20, 5, 'FR', 'EU')`,
    );
    await exec(`INSTALL semantic_views`);
    await exec(`LOAD semantic_views`);
    await exec(`CREATE OR REPLACE SEMANTIC VIEW sales AS
      TABLES (sales_data)
      DIMENSIONS (sales_data.country AS sales_data.country, sales_data.region AS sales_data.region)
      METRICS (sales_data.revenue AS SUM(sales_data.revenue), sales_data.cost AS SUM(sales_data.cost))`);
    await exec(`CREATE SEMANTIC VIEW shop AS
      TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), r AS regions PRIMARY KEY (id))
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, customer_region AS c(region_id) REFERENCES r)
      FACTS (o.net AS o.amount - o.discount)
      DIMENSIONS (c.segment AS c.segment, r.region_name AS r.name, o.status AS o.status)
      METRICS (o.revenue AS SUM(o.amount), PRIVATE o.net_sum AS SUM(o.net), o.order_count AS COUNT(*),
               c.customer_count AS COUNT(*), net_per_order AS net_sum / order_count)`);
  });
  after(() => session.close());

  it("runs the SPEC query: revenue by country, summed and ordered", async () => {
    const result = await exec(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) ORDER BY revenue DESC",
    );
    expect(result.columns).to.deep.equal([
      { name: "country", type: "VARCHAR" },
      { name: "revenue", type: "BIGINT" },
    ]);
    expect(result.rows).to.deep.equal([
      ["US", 300n],
      ["DE", 150n],
      ["FR", 20n],
    ]);
  });

  it("matches hand-written SQL on a snowflake view created by DDL", async () => {
    const semantic = await exec(
      `SELECT * FROM semantic_view('shop', dimensions := ['region_name'], metrics := ['revenue', 'net_per_order'],
         where_clause := 'status <> ''cancelled''') ORDER BY ALL`,
    );
    const hand = await session.query(
      `SELECT r.name, SUM(o.amount), SUM(o.amount - o.discount) / COUNT(*) FROM orders o
       LEFT JOIN customers c ON o.customer_id = c.id LEFT JOIN regions r ON c.region_id = r.id
       WHERE o.status <> 'cancelled' GROUP BY ALL ORDER BY ALL`,
    );
    expect(semantic.rows).to.deep.equal(hand.rows);
  });

  it("computes a parent-grain metric in its own grain", async () => {
    const semantic = await exec(
      `SELECT * FROM semantic_view('shop', dimensions := ['segment'], metrics := ['customer_count', 'order_count']) ORDER BY ALL`,
    );
    const hand = await session.query(
      `SELECT s.segment, (SELECT NULLIF(COUNT(*), 0) FROM customers c WHERE c.segment IS NOT DISTINCT FROM s.segment),
              (SELECT COUNT(*) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id WHERE c.segment IS NOT DISTINCT FROM s.segment)
       FROM (SELECT segment FROM customers UNION SELECT c.segment FROM orders o LEFT JOIN customers c ON o.customer_id = c.id) s
       ORDER BY ALL`,
    );
    expect(semantic.rows).to.deep.equal(hand.rows);
    // Orders without a customer form a NULL segment that has no customers at all.
    expect(semantic.rows.at(-1)).to.deep.equal([null, null, 2n]);
  });

  it("reports an unknown view as not_found with a suggestion", async () => {
    try {
      await exec("SELECT * FROM semantic_view('shops', metrics := ['revenue'])");
      expect.fail("expected an error");
    } catch (error) {
      expect((error as { kind?: string }).kind).to.equal("not_found");
      expect((error as Error).message).to.equal(
        "Semantic view 'shops' not found. Did you mean 'shop'? Available views: [sales, shop]. Run SHOW SEMANTIC VIEWS to see all registered views.",
      );
    }
  });
});
