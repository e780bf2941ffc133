/**
 * docs/explanation/metric-grain.rst: each metric at its own table's grain; multi-grain queries
 * assembled per grain with a NULL-safe FULL OUTER JOIN (CROSS JOIN without dimensions); the
 * shapes still refused; role-playing and USING per grain. Expected rows are the page's.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: explanation/metric-grain", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, region VARCHAR, balance DECIMAL(10,2));
      INSERT INTO customers VALUES (1, 'East', 500.00), (2, 'East', 300.00), (3, 'West', 900.00);
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount DECIMAL(10,2));
      INSERT INTO orders VALUES (1, 1, 25.00), (2, 1, 50.00), (3, 2, 75.00);
      CREATE SEMANTIC VIEW accounts AS
      TABLES (
          o AS orders    PRIMARY KEY (id),
          c AS customers PRIMARY KEY (id)
      )
      RELATIONSHIPS (
          order_customer AS o(customer_id) REFERENCES c
      )
      DIMENSIONS (
          c.region AS c.region
      )
      METRICS (
          o.order_count   AS COUNT(*),
          c.total_balance AS SUM(c.balance)
      );`);
  });
  after(() => db.close());

  /** DECIMAL results compared as text (the driver returns them as decimal objects). */
  const text = (sql: string): Promise<unknown[][]> => db.rows(`SELECT COLUMNS(*)::VARCHAR FROM (${sql})`);

  it("two grains by region: West keeps its balance with a NULL order count", async () => {
    const sql =
      "SELECT * FROM semantic_view('accounts', dimensions := ['region'], metrics := ['order_count', 'total_balance']) ORDER BY region";
    expect(await text(sql)).to.deep.equal([
      ["East", "3", "800.00"],
      ["West", null, "900.00"],
    ]);
    expect(await db.types(sql)).to.deep.equal({
      region: "VARCHAR",
      order_count: "BIGINT",
      total_balance: "DECIMAL(38,2)",
    });
  });

  it("a parent-table metric alone is the plain customer-grain total", async () => {
    expect(await text("SELECT * FROM semantic_view('accounts', metrics := ['total_balance'])")).to.deep.equal([
      ["1700.00"],
    ]);
    expect(
      await text("SELECT * FROM semantic_view('accounts', dimensions := ['region'], metrics := ['total_balance'])"),
    ).to.deep.equal([
      ["East", "800.00"],
      ["West", "900.00"],
    ]);
  });

  it("without dimensions the grains are combined into one row", async () => {
    expect(
      await text("SELECT * FROM semantic_view('accounts', metrics := ['order_count', 'total_balance'])"),
    ).to.deep.equal([["3", "1700.00"]]);
  });

  it("a single-grain query by a parent dimension counts each order once", async () => {
    expect(
      await db.rows("SELECT * FROM semantic_view('accounts', dimensions := ['region'], metrics := ['order_count'])"),
    ).to.deep.equal([["East", 3n]]);
  });

  it("refuses a dimension below the metric's grain", async () => {
    await db.run(
      "CREATE OR REPLACE SEMANTIC VIEW accounts_by_order AS TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id)) RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c) DIMENSIONS (o.order_id AS o.id, c.region AS c.region) METRICS (c.total_balance AS SUM(c.balance))",
    );
    const e = await db.error(
      "SELECT * FROM semantic_view('accounts_by_order', dimensions := ['order_id'], metrics := ['total_balance'])",
    );
    expect(e.message).to.contain(
      "fan trap detected -- metric 'total_balance' (table 'c') would be duplicated when joined to dimension 'order_id' (table 'o') via relationship 'order_customer'",
    );
  });

  it("a derived metric fusing two grains evaluates over the pre-aggregates", async () => {
    await db.run(`CREATE SEMANTIC VIEW accounts_ratio AS
      TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
      DIMENSIONS (c.region AS c.region)
      METRICS (o.order_count AS COUNT(*), c.customer_count AS COUNT(*), orders_per_customer AS order_count / customer_count)`);
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('accounts_ratio', dimensions := ['region'], metrics := ['orders_per_customer'])",
      ),
    ).to.deep.equal([
      ["East", 1.5],
      ["West", null],
    ]);
  });

  it("COUNT(*) on a table without a PRIMARY KEY is answerable when it anchors its own grain", async () => {
    await db.run(`CREATE SEMANTIC VIEW nokey AS
      TABLES (o AS orders PRIMARY KEY (id), c AS customers UNIQUE (id))
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c(id))
      DIMENSIONS (c.region AS c.region)
      METRICS (o.order_count AS COUNT(*), c.customer_count AS COUNT(*))`);
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('nokey', dimensions := ['region'], metrics := ['customer_count', 'order_count'])",
      ),
    ).to.deep.equal([
      ["East", 2n, 3n],
      ["West", 1n, null],
    ]);
  });

  describe("role-playing per grain", () => {
    before(async () => {
      await db.run(`
        CREATE TABLE airports (code VARCHAR, city VARCHAR);
        INSERT INTO airports VALUES ('JFK', 'New York'), ('LAX', 'Los Angeles');
        CREATE TABLE flights (id INTEGER, dep VARCHAR, arr VARCHAR, carrier_id INTEGER);
        INSERT INTO flights VALUES (1, 'JFK', 'LAX', 1), (2, 'JFK', 'LAX', 1), (3, 'LAX', 'JFK', 2);
        CREATE TABLE carriers (id INTEGER, fleet INTEGER);
        INSERT INTO carriers VALUES (1, 10), (2, 4), (3, 7);
        CREATE SEMANTIC VIEW trips AS
        TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code), k AS carriers PRIMARY KEY (id))
        RELATIONSHIPS (departs AS f(dep) REFERENCES a, arrives AS f(arr) REFERENCES a, flown_by AS f(carrier_id) REFERENCES k)
        DIMENSIONS (a.city AS a.city)
        METRICS (f.departures USING (departs) AS COUNT(*), f.arrivals USING (arrives) AS COUNT(*), k.fleet_size AS SUM(k.fleet))`);
    });

    it("USING picks the path; a parent-grain metric still totals its own table", async () => {
      expect(
        await db.rows("SELECT * FROM semantic_view('trips', dimensions := ['city'], metrics := ['departures'])"),
      ).to.deep.equal([
        ["Los Angeles", 1n],
        ["New York", 2n],
      ]);
      expect(
        await db.rows("SELECT * FROM semantic_view('trips', metrics := ['departures', 'fleet_size'])"),
      ).to.deep.equal([[3n, 21n]]);
    });

    it("per grain, each grain joins the role-played table through the relationship USING named", async () => {
      await db.run(`
        CREATE TABLE legs (id INTEGER, flight_id INTEGER);
        INSERT INTO legs VALUES (1, 1), (2, 1), (3, 3);
        CREATE SEMANTIC VIEW trip_legs AS
        TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code), l AS legs PRIMARY KEY (id))
        RELATIONSHIPS (departs AS f(dep) REFERENCES a, arrives AS f(arr) REFERENCES a, leg_flight AS l(flight_id) REFERENCES f)
        DIMENSIONS (a.city AS a.city)
        METRICS (f.departures USING (departs) AS COUNT(*), l.leg_count AS COUNT(*))`);
      // departures at the flight grain, legs at the leg grain, both by departure city.
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('trip_legs', dimensions := ['city'], metrics := ['departures', 'leg_count'])",
        ),
      ).to.deep.equal([
        ["Los Angeles", 1n, 1n],
        ["New York", 2n, 2n],
      ]);
      // A metric aggregated at the role-played table cannot be scoped per grain.
      await db.run(`CREATE SEMANTIC VIEW trip_ports AS
        TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code))
        RELATIONSHIPS (departs AS f(dep) REFERENCES a, arrives AS f(arr) REFERENCES a)
        DIMENSIONS (a.city AS a.city)
        METRICS (f.departures USING (departs) AS COUNT(*), a.airport_count AS COUNT(*))`);
      const e = await db.error(
        "SELECT * FROM semantic_view('trip_ports', dimensions := ['city'], metrics := ['departures', 'airport_count'])",
      );
      expect(e.message).to.contain("fan trap detected -- metric 'airport_count' uses role-playing table 'a'");
    });

    it("a role-played dimension without USING is ambiguous", async () => {
      const e = await db.error(
        "SELECT * FROM semantic_view('trips', dimensions := ['city'], metrics := ['fleet_size'])",
      );
      expect(e.message).to.contain(
        "dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [departs, arrives]",
      );
    });
  });
});
