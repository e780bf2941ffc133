/**
 * docs/how-to/fan-traps.rst: the orders / line_items model (base table on the referenced side),
 * the safe and the blocked direction, the three fixes, one-to-one, sibling tables and the
 * per-grain shapes. Expected rows are the page's data worked by hand.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/fan-traps", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR);
      INSERT INTO orders VALUES (1, 'East'), (2, 'West');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, extended_price DOUBLE, status VARCHAR);
      INSERT INTO line_items VALUES (1, 1, 100.00, 'shipped'), (2, 1, 200.00, 'pending'), (3, 2, 150.00, 'shipped');
      CREATE SEMANTIC VIEW sales AS
      TABLES (
          o  AS orders     PRIMARY KEY (id),
          li AS line_items PRIMARY KEY (id)
      )
      RELATIONSHIPS (
          li_to_order AS li(order_id) REFERENCES o
      )
      DIMENSIONS (
          o.region     AS o.region,
          li.status    AS li.status
      )
      METRICS (
          li.revenue     AS SUM(li.extended_price),
          o.order_count  AS COUNT(*)
      );`);
  });
  after(() => db.close());

  it("accepts a base table referenced from the FK side", async () => {
    const { rows } = await db.run("SELECT name FROM list_semantic_views() WHERE name = 'sales'");
    expect(rows).to.deep.equal([["sales"]]);
  });

  it("safe query: li.revenue by o.region follows the many-to-one edge", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['revenue'])"),
    ).to.deep.equal([
      ["East", 300],
      ["West", 150],
    ]);
  });

  it("blocked query: o.order_count by li.status names the metric, the dimension and the relationship", async () => {
    const e = await db.error(
      "SELECT * FROM semantic_view('sales', dimensions := ['status'], metrics := ['order_count'])",
    );
    expect(e.message).to.contain(
      "semantic view 'sales': fan trap detected -- metric 'order_count' (table 'o') would be duplicated when joined to dimension 'status' (table 'li') via relationship 'li_to_order' (many-to-one cardinality, inferred: FK is not PK/UNIQUE). This would inflate aggregation results.",
    );
  });

  it("fix 1: a dimension from the metric's own table", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['order_count'])"),
    ).to.deep.equal([
      ["East", 1n],
      ["West", 1n],
    ]);
  });

  it("fix 2: a metric from the dimension's table", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('sales', dimensions := ['status'], metrics := ['revenue'])"),
    ).to.deep.equal([
      ["pending", 200],
      ["shipped", 250],
    ]);
  });

  it("metrics at two grains queried together are computed per grain", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['order_count', 'revenue'])",
      ),
    ).to.deep.equal([
      ["East", 1n, 300],
      ["West", 1n, 150],
    ]);
    expect(await db.rows("SELECT * FROM semantic_view('sales', metrics := ['order_count', 'revenue'])")).to.deep.equal([
      [2n, 450],
    ]);
  });

  it("a derived metric fusing two grains divides by the true order count", async () => {
    await db.run(`CREATE SEMANTIC VIEW sales_avg AS
      TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
      RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
      DIMENSIONS (o.region AS o.region)
      METRICS (li.revenue AS SUM(li.extended_price), o.order_count AS COUNT(*), revenue_per_order AS revenue / order_count)`);
    expect(await db.rows("SELECT * FROM semantic_view('sales_avg', metrics := ['revenue_per_order'])")).to.deep.equal([
      [225],
    ]);
  });

  it("one-to-one: an FK that is the PK of its table joins in either direction", async () => {
    await db.run(`
      CREATE TABLE order_details (order_id INTEGER, channel VARCHAR);
      INSERT INTO order_details VALUES (1, 'web'), (2, 'store');
      CREATE SEMANTIC VIEW order_details AS
      TABLES (o AS orders PRIMARY KEY (id), od AS order_details PRIMARY KEY (order_id))
      RELATIONSHIPS (detail_to_order AS od(order_id) REFERENCES o)
      DIMENSIONS (o.region AS o.region, od.channel AS od.channel)
      METRICS (o.order_count AS COUNT(*), od.detail_count AS COUNT(*))`);
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('order_details', dimensions := ['channel'], metrics := ['order_count'])",
      ),
    ).to.deep.equal([
      ["store", 1n],
      ["web", 1n],
    ]);
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('order_details', dimensions := ['region'], metrics := ['detail_count'])",
      ),
    ).to.deep.equal([
      ["East", 1n],
      ["West", 1n],
    ]);
  });

  describe("siblings: line_items and shipments both reference orders", () => {
    before(async () => {
      await db.run(`
        CREATE TABLE shipments (id INTEGER, order_id INTEGER, carrier VARCHAR);
        INSERT INTO shipments VALUES (1, 1, 'ups'), (2, 1, 'dhl'), (3, 2, 'ups');
        CREATE SEMANTIC VIEW fulfilment AS
        TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), s AS shipments PRIMARY KEY (id))
        RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, s_to_order AS s(order_id) REFERENCES o)
        DIMENSIONS (o.region AS o.region, li.status AS li.status, s.carrier AS s.carrier)
        METRICS (li.revenue AS SUM(li.extended_price), s.shipment_count AS COUNT(*), o.order_count AS COUNT(*))`);
    });

    it("a metric on one sibling by a dimension on the other is a fan trap", async () => {
      const e = await db.error(
        "SELECT * FROM semantic_view('fulfilment', dimensions := ['carrier'], metrics := ['revenue'])",
      );
      expect(e.message).to.contain(
        "fan trap detected -- metric 'revenue' (table 'li') would be duplicated when joined to dimension 'carrier' (table 's') via relationship 's_to_order'",
      );
    });

    it("both siblings' metrics together are computed per grain (a chasm trap answered)", async () => {
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('fulfilment', dimensions := ['region'], metrics := ['revenue', 'shipment_count', 'order_count'])",
        ),
      ).to.deep.equal([
        ["East", 300, 2n, 1n],
        ["West", 150, 1n, 1n],
      ]);
    });

    it("facts from two siblings are on incompatible paths", async () => {
      await db.run(`CREATE SEMANTIC VIEW fulfilment_facts AS
        TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id), s AS shipments PRIMARY KEY (id))
        RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o, s_to_order AS s(order_id) REFERENCES o)
        FACTS (li.price AS li.extended_price, s.carrier_code AS upper(s.carrier))
        DIMENSIONS (o.region AS o.region)`);
      const e = await db.error("SELECT * FROM semantic_view('fulfilment_facts', facts := ['price', 'carrier_code'])");
      expect(e.message).to.contain(
        "fact query references objects from incompatible table paths -- neither table 'li' nor 's' can be reached from the other",
      );
      expect(
        await db.rows("SELECT * FROM semantic_view('fulfilment_facts', dimensions := ['region'], facts := ['price'])"),
      ).to.deep.equal([
        ["East", 100],
        ["East", 200],
        ["West", 150],
      ]);
    });
  });
});
