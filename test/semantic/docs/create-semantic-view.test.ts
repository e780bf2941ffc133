/**
 * docs/reference/create-semantic-view.rst: relationship graphs (the base table on either side of
 * an edge, chains, several children, role-playing, the rejected shapes) and member expressions
 * (aggregate recognition, escape strings, dollar quotes, comments anywhere in a body).
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: reference/create-semantic-view", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE regions (id INTEGER, name VARCHAR);
      INSERT INTO regions VALUES (1, 'North'), (2, 'South');
      CREATE TABLE customers (id INTEGER, region_id INTEGER, name VARCHAR);
      INSERT INTO customers VALUES (1, 1, 'Ann'), (2, 2, 'Bob'), (3, 1, 'Cy');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, status VARCHAR);
      INSERT INTO orders VALUES (10, 1, 'open'), (11, 1, 'done'), (12, 2, 'done');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, qty INTEGER, price DECIMAL(10,2));
      INSERT INTO line_items VALUES (1, 10, 2, 5.00), (2, 10, 1, 7.50), (3, 11, 4, 1.25), (4, 12, 3, 2.00);
      CREATE TABLE payments (id INTEGER, order_id INTEGER, amount DECIMAL(10,2));
      INSERT INTO payments VALUES (1, 10, 17.50), (2, 11, 5.00), (3, 12, 3.00), (4, 12, 2.00);`);
  });
  after(() => db.close());

  describe("relationship graphs", () => {
    it("the base table referenced from the FK side, with a chain above it", async () => {
      // Base table orders: line_items references it (FK side), customers and regions sit above it.
      await db.run(`CREATE SEMANTIC VIEW shop AS
        TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), c AS customers PRIMARY KEY (id), r AS regions PRIMARY KEY (id))
        RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, order_customer AS o(customer_id) REFERENCES c, customer_region AS c(region_id) REFERENCES r)
        DIMENSIONS (r.region AS r.name, c.customer AS c.name, o.status AS o.status)
        METRICS (li.units AS SUM(li.qty), o.order_count AS COUNT(*))`);
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('shop', dimensions := ['region'], metrics := ['units', 'order_count'])",
        ),
      ).to.deep.equal([
        ["North", 7n, 2n],
        ["South", 3n, 1n],
      ]);
      expect(
        await db.rows("SELECT * FROM semantic_view('shop', dimensions := ['status'], metrics := ['units'])"),
      ).to.deep.equal([
        ["done", 7n],
        ["open", 3n],
      ]);
    });

    it("several children of the base table: a derived metric over both, each at its own grain", async () => {
      await db.run(`CREATE SEMANTIC VIEW money AS
        TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), p AS payments PRIMARY KEY (id))
        RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, payment_order AS p(order_id) REFERENCES o)
        DIMENSIONS (o.status AS o.status)
        METRICS (li.billed AS SUM(li.qty * li.price), p.paid AS SUM(p.amount), outstanding AS billed - paid)`);
      expect(
        await db.rows(
          "SELECT status, outstanding::VARCHAR FROM semantic_view('money', dimensions := ['status'], metrics := ['outstanding'])",
        ),
      ).to.deep.equal([
        ["done", "1.00"],
        ["open", "0.00"],
      ]);
    });

    it("a chain whose base table is at the bottom, queried from the top", async () => {
      await db.run(`CREATE SEMANTIC VIEW regional AS
        TABLES (r AS regions PRIMARY KEY (id), c AS customers PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
        RELATIONSHIPS (customer_region AS c(region_id) REFERENCES r, order_customer AS o(customer_id) REFERENCES c)
        DIMENSIONS (r.region AS r.name)
        METRICS (r.region_count AS COUNT(*), c.customer_count AS COUNT(*), o.order_count AS COUNT(*))`);
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('regional', dimensions := ['region'], metrics := ['region_count', 'customer_count', 'order_count'])",
        ),
      ).to.deep.equal([
        ["North", 1n, 2n, 2n],
        ["South", 1n, 1n, 1n],
      ]);
      // Regions with no customers' orders still count once each.
      expect(await db.rows("SELECT * FROM semantic_view('regional', metrics := ['region_count'])")).to.deep.equal([
        [2n],
      ]);
    });

    const rejected: [string, string, string][] = [
      [
        "a self-reference",
        "TABLES (c AS customers PRIMARY KEY (id)) RELATIONSHIPS (r AS c(region_id) REFERENCES c) DIMENSIONS (c.n AS c.name)",
        "table 'c' cannot reference itself",
      ],
      [
        "a cycle",
        "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id)) RELATIONSHIPS (a AS o(customer_id) REFERENCES c, b AS c(id) REFERENCES o) DIMENSIONS (c.n AS c.name)",
        "cycle detected in relationships: o -> c -> o",
      ],
      [
        "a diamond",
        "TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), p AS payments PRIMARY KEY (id), c AS customers PRIMARY KEY (id)) RELATIONSHIPS (a AS li(order_id) REFERENCES c, b AS p(order_id) REFERENCES c, x AS li(order_id) REFERENCES o, y AS p(order_id) REFERENCES o) DIMENSIONS (c.n AS c.name)",
        "Diamond detected: table 'c' is reachable via multiple paths",
      ],
      [
        "an orphan table",
        "TABLES (o AS orders PRIMARY KEY (id), r AS regions PRIMARY KEY (id)) DIMENSIONS (o.s AS o.status)",
        "orphan table 'r' is not connected by any relationship",
      ],
      [
        "referenced columns that are not a key",
        "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id)) RELATIONSHIPS (oc AS o(customer_id) REFERENCES c(region_id)) DIMENSIONS (c.n AS c.name)",
        "FK (region_id) in relationship 'oc' does not match any PRIMARY KEY or UNIQUE constraint on table 'c'. Available: PK(id).",
      ],
    ];
    for (const [what, body, message] of rejected) {
      it(`rejects ${what}`, async () => {
        const e = await db.error(`CREATE SEMANTIC VIEW bad AS ${body}`);
        expect(e.message).to.contain(message);
      });
    }

    it("a base table no relationship mentions is degenerate but accepted", async () => {
      await db.run(`CREATE SEMANTIC VIEW degenerate AS
        TABLES (r AS regions PRIMARY KEY (id), o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
        DIMENSIONS (r.region AS r.name, c.customer AS c.name)
        METRICS (o.order_count AS COUNT(*))`);
      expect(await db.rows("SELECT * FROM semantic_view('degenerate', dimensions := ['region'])")).to.deep.equal([
        ["North"],
        ["South"],
      ]);
      // The connected tables answer on their own (anchored at the metric's table) ...
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('degenerate', dimensions := ['customer'], metrics := ['order_count'])",
        ),
      ).to.deep.equal([
        ["Ann", 2n],
        ["Bob", 1n],
      ]);
      // ... but nothing joins them to the base table.
      const e = await db.error(
        "SELECT * FROM semantic_view('degenerate', dimensions := ['region'], metrics := ['order_count'])",
      );
      expect(e.message).to.contain("(table 'r') is not reachable through the relationships");
    });

    it("fan-in onto the base table is not a diamond", async () => {
      await db.run(`CREATE SEMANTIC VIEW fan_in AS
        TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), p AS payments PRIMARY KEY (id))
        RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, payment_order AS p(order_id) REFERENCES o)
        METRICS (li.units AS SUM(li.qty), p.payment_count AS COUNT(*))`);
      expect(
        await db.rows("SELECT * FROM semantic_view('fan_in', metrics := ['units', 'payment_count'])"),
      ).to.deep.equal([[10n, 4n]]);
    });
  });

  describe("member expressions", () => {
    before(async () => {
      await db.run(`CREATE SEMANTIC VIEW exprs AS -- a comment before the body
        TABLES (li AS line_items /* block comment */ PRIMARY KEY (id))
        DIMENSIONS (
          li.tag AS E'it\\'s ' || li.id::VARCHAR, -- escape string with an escaped quote
          li.body AS $$a 'quoted' $$ || li.qty, /* dollar-quoted body */
          li.tagged AS $tag$x$tag$ || li.id
        )
        METRICS (
          li.big_lines AS count_if(li.qty > 2),
          li.any_big AS bool_or(li.qty > 3),
          li.units AS SUM(li.qty) -- trailing comment
        )`);
    });

    it("keeps escape strings, dollar quotes and comments intact", async () => {
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('exprs', dimensions := ['tag', 'body', 'tagged']) WHERE tagged = 'x1'",
        ),
      ).to.deep.equal([["it's 1", "a 'quoted' 2", "x1"]]);
    });

    it("recognises count_if and bool_or as aggregates", async () => {
      expect(
        await db.rows("SELECT * FROM semantic_view('exprs', metrics := ['big_lines', 'any_big', 'units'])"),
      ).to.deep.equal([[2n, true, 10n]]);
      const e = await db.error(
        "CREATE SEMANTIC VIEW bad AS TABLES (li AS line_items) FACTS (li.f AS count_if(li.qty > 1)) DIMENSIONS (li.d AS li.id)",
      );
      expect(e.message).to.contain("Fact 'f' contains aggregate function 'count_if'");
    });

    it("guards count_if on a joined table against phantom rows", async () => {
      await db.run(`CREATE SEMANTIC VIEW guarded AS
        TABLES (c AS customers PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
        DIMENSIONS (c.customer AS c.name)
        METRICS (o.not_done AS count_if(o.status <> 'done'), o.all_orders AS count_if(true))`);
      // Cy has no orders: the NULL-extended row must not count as one (count_if over only
      // guarded NULLs is NULL in DuckDB, as SUM is; unguarded, count_if(true) would give 1).
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('guarded', dimensions := ['customer'], metrics := ['not_done', 'all_orders'])",
        ),
      ).to.deep.equal([
        ["Ann", 1n, 2n],
        ["Bob", 0n, 1n],
        ["Cy", null, null],
      ]);
    });
  });
});
