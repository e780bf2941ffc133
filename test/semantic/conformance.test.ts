/**
 * Conformance of semantic_view() expansion: every case runs through the rewriter on real DuckDB and
 * is compared, row for row, with hand-written SQL over the same seeded data.
 */
import { expect } from "chai";
import { expandSemanticQuery } from "../../runtime/semantic/expand/expand.js";
import { clearSemanticQueryCache } from "../../runtime/semantic/call/typed-query.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { fixedCatalog } from "./support/definitions.js";
import { TestSession } from "./support/session.js";
import { customersView, detailsView, flightsView, seedShop, shopView } from "./support/shop-fixture.js";

describe("semantic_view() conformance", () => {
  let session: TestSession;
  const catalog = fixedCatalog(shopView, flightsView, customersView, detailsView);

  before(async () => {
    clearSemanticQueryCache();
    session = await TestSession.open();
    await seedShop(session);
  });
  after(() => session.close());

  async function sv(sql: string) {
    const rewritten = await rewriteSemanticViewCalls(session, sql, catalog);
    expect(rewritten, "a semantic_view call was rewritten").to.be.a("string");
    return session.query(rewritten!);
  }

  /** Runs both and asserts identical rows (both sides carry their own ORDER BY). */
  async function same(semanticSql: string, handSql: string) {
    const actual = await sv(semanticSql);
    const expected = await session.query(handSql);
    expect(actual.rows).to.deep.equal(expected.rows);
    expect(actual.rows.length).to.be.greaterThan(0);
    return actual;
  }

  async function failure(sql: string): Promise<SemanticViewError> {
    try {
      await sv(sql);
    } catch (error) {
      expect(error).to.be.instanceOf(SemanticViewError);
      return error as SemanticViewError;
    }
    return expect.fail(`expected ${sql} to fail`);
  }

  describe("query modes", () => {
    it("dimensions + metrics: grouped, base-anchored LEFT JOINs", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['segment'], metrics := ['revenue', 'order_count']) ORDER BY ALL`,
        `SELECT c.segment, SUM(o.amount), COUNT(*) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
         GROUP BY c.segment ORDER BY ALL`,
      );
    });

    it("dimensions only: distinct values", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['status']) ORDER BY ALL`,
        `SELECT DISTINCT status FROM orders ORDER BY ALL`,
      );
    });

    it("dimensions only on a table above the base keep the NULL of orders without a customer", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['customer_name']) ORDER BY ALL`,
        `SELECT DISTINCT c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.id ORDER BY ALL`,
      );
    });

    it("metrics only: one grand-total row", async () => {
      const result = await same(
        `SELECT * FROM semantic_view('shop', metrics := ['revenue', 'units', 'order_count'])`,
        `SELECT SUM(amount), SUM(qty), COUNT(*) FROM orders`,
      );
      expect(result.rows).to.have.length(1);
    });

    it("facts: one row per source row, with dimensions", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['status'], facts := ['net']) ORDER BY ALL`,
        `SELECT status, amount - discount FROM orders ORDER BY ALL`,
      );
    });

    it("facts referencing facts are inlined in dependency order", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', facts := ['net_per_unit']) ORDER BY ALL`,
        `SELECT (amount - discount) / qty FROM orders ORDER BY ALL`,
      );
    });

    it("rejects facts combined with metrics, and an empty request", async () => {
      const combined = await failure(`SELECT * FROM semantic_view('shop', facts := ['net'], metrics := ['revenue'])`);
      expect(combined.message).to.contain("cannot combine facts and metrics in the same query");
      const empty = await failure(`SELECT * FROM semantic_view('shop')`);
      expect(empty.message).to.contain("specify at least dimensions := [...], metrics := [...], or facts := [...]");
      const whereOnly = await failure(`SELECT * FROM semantic_view('shop', where_clause := 'status = ''done''')`);
      expect(whereOnly.message).to.contain("specify at least");
    });
  });

  describe("joins", () => {
    it("star: two dimension tables", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['segment', 'category'], metrics := ['units']) ORDER BY ALL`,
        `SELECT c.segment, p.category, SUM(o.qty) FROM orders o
         LEFT JOIN customers c ON o.customer_id = c.id LEFT JOIN products p ON o.product_id = p.id
         GROUP BY ALL ORDER BY ALL`,
      );
    });

    it("snowflake: a two-level join through customers to regions", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['region_name'], metrics := ['revenue']) ORDER BY ALL`,
        `SELECT r.name, SUM(o.amount) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
         LEFT JOIN regions r ON c.region_id = r.id GROUP BY ALL ORDER BY ALL`,
      );
    });

    it("joins only the tables the request needs", () => {
      const { sql } = expandSemanticQuery(shopView, { dimensions: ["status"], metrics: ["revenue"], facts: [] });
      expect(sql).not.to.match(/JOIN/);
      const request = { dimensions: ["region_name"], metrics: ["revenue"], facts: [] };
      // The extension's layout (explain_semantic_view): one LEFT JOIN per table, chained.
      const snow = expandSemanticQuery(shopView, request, { joins: "chain" });
      expect(snow.sql).to.contain(`LEFT JOIN "memory"."main"."customers" AS "c"`);
      expect(snow.sql).to.contain(`LEFT JOIN "memory"."main"."regions" AS "r"`);
      expect(snow.sql).not.to.contain(`"products"`);
      expect(snow.sql).to.match(/GROUP BY\n {4}1$/);
      // What runs: the customers-regions subtree nested, so DuckDB joins it first.
      expect(expandSemanticQuery(shopView, request).sql).to.contain(
        [
          `FROM "memory"."main"."orders" AS "o"`,
          `LEFT JOIN (`,
          `    "memory"."main"."customers" AS "c"`,
          `    LEFT JOIN "memory"."main"."regions" AS "r"`,
          `        ON "c"."region_id" = "r"."id"`,
          `)`,
          `    ON "o"."customer_id" = "c"."id"`,
        ].join("\n"),
      );
    });

    it("a metric on a joined table counts its key and ignores phantom rows", async () => {
      await same(
        `SELECT * FROM semantic_view('customer_orders', dimensions := ['segment'], metrics := ['orders_n', 'ones', 'order_total']) ORDER BY ALL`,
        `SELECT c.segment, COUNT(o.id), SUM(CASE WHEN o.id IS NOT NULL THEN 1 END), SUM(o.amount)
         FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY ALL ORDER BY ALL`,
      );
      const { sql } = expandSemanticQuery(customersView, { dimensions: [], metrics: ["orders_n"], facts: [] });
      expect(sql).to.contain(`COUNT("o"."id")`);
    });
  });

  describe("one-to-one relationships", () => {
    it("are safe in both directions: one SELECT, joined-table aggregates guarded", async () => {
      await same(
        `SELECT * FROM semantic_view('order_details', dimensions := ['gift'], metrics := ['revenue']) ORDER BY ALL`,
        `SELECT d.gift, SUM(o.amount) FROM orders o LEFT JOIN order_details d ON d.order_id = o.id GROUP BY ALL ORDER BY ALL`,
      );
      await same(
        `SELECT * FROM semantic_view('order_details', dimensions := ['status'], metrics := ['detailed', 'weight', 'revenue']) ORDER BY ALL`,
        `SELECT o.status, COUNT(d.order_id), SUM(d.weight), SUM(o.amount) FROM orders o
         LEFT JOIN order_details d ON d.order_id = o.id GROUP BY ALL ORDER BY ALL`,
      );
      const { sql } = expandSemanticQuery(detailsView, { dimensions: ["status"], metrics: ["detailed"], facts: [] });
      expect(sql).not.to.contain("WITH");
      expect(sql).to.contain(`COUNT("d"."order_id")`);
    });
  });

  describe("metrics", () => {
    it("derived metrics are inlined over their base metrics", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['status'], metrics := ['net_per_order']) ORDER BY ALL`,
        `SELECT status, SUM(amount - discount) / COUNT(*) FROM orders GROUP BY ALL ORDER BY ALL`,
      );
    });

    it("derived metrics may use PRIVATE metrics and other derived metrics", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', metrics := ['discount_share', 'discount_share_pct'])`,
        `SELECT SUM(discount) / SUM(amount), 100 * (SUM(discount) / SUM(amount)) FROM orders`,
      );
    });

    it("refuses a PRIVATE metric, and wildcards skip it", async () => {
      const error = await failure(`SELECT * FROM semantic_view('shop', metrics := ['total_discount'])`);
      expect(error.message).to.contain("metric 'total_discount' is private and cannot be queried directly");
      const result = await sv(`SELECT * FROM semantic_view('shop', metrics := ['o.*'])`);
      expect(result.columns.map((c) => c.name)).to.deep.equal(["revenue", "net_revenue", "order_count", "units"]);
    });

    it("a metric at the parent grain is aggregated in its own CTE", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['region_name'], metrics := ['revenue', 'customer_count']) ORDER BY ALL`,
        `WITH names AS (SELECT r.name FROM customers c LEFT JOIN regions r ON c.region_id = r.id
                        UNION SELECT r.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
                                                         LEFT JOIN regions r ON c.region_id = r.id)
         SELECT n.name,
           (SELECT SUM(o.amount) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
              LEFT JOIN regions r ON c.region_id = r.id WHERE r.name IS NOT DISTINCT FROM n.name),
           (SELECT COUNT(*) FROM customers c LEFT JOIN regions r ON c.region_id = r.id
              WHERE r.name IS NOT DISTINCT FROM n.name)
         FROM names n ORDER BY ALL`,
      );
    });

    it("a derived metric mixing grains combines each grain's aggregate", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['segment'], metrics := ['revenue_per_customer']) ORDER BY ALL`,
        `WITH rev AS (SELECT c.segment, SUM(o.amount) AS revenue FROM orders o LEFT JOIN customers c ON o.customer_id = c.id GROUP BY 1),
              cust AS (SELECT segment, COUNT(*) AS n FROM customers GROUP BY 1)
         SELECT COALESCE(rev.segment, cust.segment), rev.revenue / cust.n
         FROM rev FULL JOIN cust ON rev.segment IS NOT DISTINCT FROM cust.segment ORDER BY ALL`,
      );
      const { sql } = expandSemanticQuery(shopView, { dimensions: [], metrics: ["revenue_per_customer"], facts: [] });
      expect(sql).to.contain(`__sv_g0."__sv_m0" / __sv_g1."__sv_m1" AS "revenue_per_customer"`);
    });

    it("metrics at two grains with no dimensions are cross joined", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', metrics := ['order_count', 'customer_count', 'avg_price'])`,
        `SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM customers), (SELECT AVG(price) FROM products)`,
      );
    });

    it("fan trap: a parent-table metric with a dimension below it is an error", async () => {
      const error = await failure(
        `SELECT * FROM semantic_view('shop', dimensions := ['status'], metrics := ['customer_count'])`,
      );
      expect(error.kind).to.equal("invalid");
      expect(error.message).to.contain(
        "fan trap detected -- metric 'customer_count' (table 'c') would be duplicated when joined to dimension 'status' (table 'o')",
      );
      const viaWhere = await failure(
        `SELECT * FROM semantic_view('customer_orders', metrics := ['customers'], where_clause := 'status = ''done''')`,
      );
      expect(viaWhere.message).to.contain("fan trap detected -- metric 'customers'");
    });
  });

  describe("role-playing", () => {
    it("USING picks the relationship and scopes the alias", async () => {
      await same(
        `SELECT * FROM semantic_view('flights', dimensions := ['city'], metrics := ['departures', 'passengers_out', 'avg_out']) ORDER BY ALL`,
        `SELECT a.city, COUNT(*), SUM(f.passengers), SUM(f.passengers) / COUNT(*) FROM flights f
         LEFT JOIN airports a ON f.dep_airport = a.code GROUP BY ALL ORDER BY ALL`,
      );
      await same(
        `SELECT * FROM semantic_view('flights', dimensions := ['city'], metrics := ['arrivals']) ORDER BY ALL`,
        `SELECT a.city, COUNT(*) FROM flights f LEFT JOIN airports a ON f.arr_airport = a.code GROUP BY ALL ORDER BY ALL`,
      );
      const { sql } = expandSemanticQuery(flightsView, { dimensions: ["city"], metrics: ["arrivals"], facts: [] });
      expect(sql).to.contain(`AS "a__arrives"`);
    });

    it("errors without a USING metric and with conflicting ones", async () => {
      const none = await failure(
        `SELECT * FROM semantic_view('flights', dimensions := ['city'], metrics := ['flight_count'])`,
      );
      expect(none.message).to.contain(
        "dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [departs, arrives]",
      );
      expect(none.message).to.contain("USING");
      const dimsOnly = await failure(`SELECT * FROM semantic_view('flights', dimensions := ['city'])`);
      expect(dimsOnly.message).to.contain("dimension 'city' is ambiguous -- table 'a'");
      const conflict = await failure(
        `SELECT * FROM semantic_view('flights', dimensions := ['city'], metrics := ['departures', 'arrivals'])`,
      );
      expect(conflict.message).to.contain(
        "dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [departs, arrives], each named in USING",
      );
    });

    it("a role-played table not needed by the query is no problem", async () => {
      await same(
        `SELECT * FROM semantic_view('flights', metrics := ['flight_count', 'departures'])`,
        `SELECT COUNT(*), COUNT(*) FROM flights`,
      );
    });
  });

  describe("where_clause", () => {
    it("substitutes members before aggregation", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['segment'], metrics := ['revenue'],
           where_clause := 'status = ''done'' AND region_name IS NOT NULL') ORDER BY ALL`,
        `SELECT c.segment, SUM(o.amount) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
         LEFT JOIN regions r ON c.region_id = r.id WHERE o.status = 'done' AND r.name IS NOT NULL GROUP BY ALL ORDER BY ALL`,
      );
    });

    it("handles string literals with quotes and PRIVATE facts", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', dimensions := ['customer_name'], metrics := ['order_count'],
           where_clause := 'customer_name = ''O''''Brien'' AND is_big')`,
        `SELECT c.name, COUNT(*) FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
         WHERE c.name = 'O''Brien' AND o.amount > 100 GROUP BY ALL`,
      );
    });

    it("passes raw columns through and rejects metrics", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', metrics := ['units'], where_clause := 'o.qty > 3')`,
        `SELECT SUM(qty) FROM orders WHERE qty > 3`,
      );
      const error = await failure(
        `SELECT * FROM semantic_view('shop', dimensions := ['status'], where_clause := 'revenue > 10')`,
      );
      expect(error.message).to.contain("where_clause cannot reference metric 'revenue'");
    });

    it("treats a blank where_clause as absent", async () => {
      await same(
        `SELECT * FROM semantic_view('shop', metrics := ['order_count'], where_clause := '  ')`,
        `SELECT COUNT(*) FROM orders`,
      );
    });
  });

  describe("output columns", () => {
    it("orders dimensions then metrics by request, named by logical names, typed like the extension", async () => {
      const result = await sv(
        `SELECT * FROM semantic_view('shop', metrics := ['units', 'revenue', 'order_count', 'net_per_order'],
           dimensions := ['o.order_month', 'SEGMENT']) LIMIT 0`,
      );
      expect(result.columns).to.deep.equal([
        { name: "order_month", type: "TIMESTAMP" },
        { name: "segment", type: "VARCHAR" },
        { name: "units", type: "BIGINT" },
        { name: "revenue", type: "DECIMAL(38,2)" },
        { name: "order_count", type: "BIGINT" },
        { name: "net_per_order", type: "DOUBLE" },
      ]);
    });

    it("expands table wildcards and rejects a bare star and duplicates", async () => {
      const result = await sv(`SELECT * FROM semantic_view('shop', dimensions := ['c.*', 'segment']) LIMIT 0`);
      expect(result.columns.map((c) => c.name)).to.deep.equal(["segment", "customer_name"]);
      const star = await failure(`SELECT * FROM semantic_view('shop', dimensions := ['*'])`);
      expect(star.message).to.contain("unqualified wildcard '*' is not supported");
      const dup = await failure(`SELECT * FROM semantic_view('shop', dimensions := ['segment', 'c.segment'])`);
      expect(dup.message).to.contain("duplicate dimension 'segment'");
    });

    it("names unknown members with the available names and a suggestion", async () => {
      const dim = await failure(`SELECT * FROM semantic_view('shop', dimensions := ['segmnt'])`);
      expect(dim.message).to.equal(
        "semantic view 'shop': unknown dimension 'segmnt'. Available: [segment, customer_name, region_name, category, status, order_month]. Did you mean 'segment'?",
      );
      const metric = await failure(`SELECT * FROM semantic_view('shop', metrics := ['zzzzzzzz'])`);
      // No suggestion within 3 edits: the list ends the message (no trailing period), as the extension formats it.
      expect(metric.message).to.match(/unknown metric 'zzzzzzzz'\. Available: \[revenue, .*\]$/);
      const fact = await failure(`SELECT * FROM semantic_view('shop', facts := ['nett'])`);
      expect(fact.message).to.contain("unknown fact 'nett'. Available: [net, net_per_unit]. Did you mean 'net'?");
    });
  });

  describe("the call inside larger SQL", () => {
    it("works in a CTE, a subquery and a join, keeping user aliases", async () => {
      await same(
        `WITH s AS (SELECT * FROM semantic_view('shop', dimensions := ['segment'], metrics := ['revenue']))
         SELECT segment, revenue FROM s WHERE revenue > 100 ORDER BY revenue DESC`,
        `SELECT c.segment, SUM(o.amount) AS rev FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
         GROUP BY ALL HAVING SUM(o.amount) > 100 ORDER BY rev DESC`,
      );
      await same(
        `SELECT x.status, x.order_count, y.units FROM
           (SELECT * FROM semantic_view('shop', dimensions := ['status'], metrics := ['order_count'])) x
           JOIN semantic_view('shop', dimensions := ['status'], metrics := ['units']) AS y ON x.status = y.status
         ORDER BY ALL`,
        `SELECT status, COUNT(*), SUM(qty) FROM orders GROUP BY ALL ORDER BY ALL`,
      );
    });

    it("applies outer WHERE, ORDER BY and LIMIT as plain SQL", async () => {
      await same(
        `SELECT category, units FROM semantic_view('shop', dimensions := ['category'], metrics := ['units'])
         WHERE category IS NOT NULL ORDER BY units DESC LIMIT 1`,
        `SELECT p.category, SUM(o.qty) FROM orders o JOIN products p ON o.product_id = p.id GROUP BY ALL ORDER BY 2 DESC LIMIT 1`,
      );
    });

    it("rejects unknown parameters and 'where'", async () => {
      const where = await failure(`SELECT * FROM semantic_view('shop', metrics := ['revenue'], "where" := 'x')`);
      expect(where.message).to.contain("where_clause");
      const unknown = await failure(`SELECT * FROM semantic_view('shop', metric := ['revenue'])`);
      expect(unknown.message).to.contain("unknown parameter 'metric'");
      expect(unknown.message).to.contain("Did you mean 'metrics'?");
    });
  });
});
