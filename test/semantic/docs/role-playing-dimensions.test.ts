/**
 * docs/how-to/role-playing-dimensions.rst (v0.12 page): one airports table reached as departure
 * and as arrival; USING picks the path per metric, derived metrics inherit it, ambiguity is an
 * error; a diamond is refused and fixed with one alias per path; descendants of a role-played
 * table and facts on one cannot be disambiguated.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/role-playing-dimensions", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE airports (airport_code VARCHAR, city VARCHAR, country VARCHAR);
      CREATE TABLE flights (flight_id INTEGER, departure_code VARCHAR, arrival_code VARCHAR, carrier VARCHAR);
      INSERT INTO airports VALUES ('JFK', 'New York', 'US'), ('LAX', 'Los Angeles', 'US'), ('LHR', 'London', 'UK');
      INSERT INTO flights VALUES (1, 'JFK', 'LAX', 'AA'), (2, 'JFK', 'LHR', 'BA'), (3, 'LAX', 'JFK', 'AA'), (4, 'LHR', 'JFK', 'BA'), (5, 'JFK', 'LAX', 'DL');
      CREATE SEMANTIC VIEW flight_analytics AS
      TABLES (
          f AS flights  PRIMARY KEY (flight_id),
          a AS airports PRIMARY KEY (airport_code)
      )
      RELATIONSHIPS (
          dep_airport AS f(departure_code) REFERENCES a,
          arr_airport AS f(arrival_code)   REFERENCES a
      )
      DIMENSIONS (
          a.city    AS a.city,
          a.country AS a.country,
          f.carrier AS f.carrier
      )
      METRICS (
          f.departure_count USING (dep_airport) AS COUNT(*),
          f.arrival_count   USING (arr_airport) AS COUNT(*),
          total_flights     AS departure_count + arrival_count
      );`);
  });
  after(() => db.close());

  it("departures by city resolve city through dep_airport", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['departure_count']) ORDER BY city",
      ),
    ).to.deep.equal([
      ["London", 1n],
      ["Los Angeles", 1n],
      ["New York", 3n],
    ]);
  });

  it("arrivals by city resolve city through arr_airport", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('flight_analytics', dimensions := ['city', 'country'], metrics := ['arrival_count']) ORDER BY city",
      ),
    ).to.deep.equal([
      ["London", "UK", 1n],
      ["Los Angeles", "US", 2n],
      ["New York", "US", 2n],
    ]);
  });

  it("a dimension on the flights table works with both metrics", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['departure_count', 'arrival_count']) ORDER BY carrier",
      ),
    ).to.deep.equal([
      ["AA", 2n, 2n],
      ["BA", 2n, 2n],
      ["DL", 1n, 1n],
    ]);
  });

  it("a derived metric over both roles works with a non-ambiguous dimension", async () => {
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['total_flights']) ORDER BY carrier",
      ),
    ).to.deep.equal([
      ["AA", 4n],
      ["BA", 4n],
      ["DL", 2n],
    ]);
  });

  it("the derived metric with the ambiguous city dimension fails", async () => {
    const e = await db.error(
      "SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['total_flights'])",
    );
    expect(e.message).to.contain(
      "dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [dep_airport, arr_airport]",
    );
  });

  it("two co-queried metrics with different USING paths are ambiguous", async () => {
    const e = await db.error(
      "SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['departure_count', 'arrival_count'])",
    );
    expect(e.message).to.contain("dimension 'city' is ambiguous");
  });

  it("a dimension alone on the role-played table is ambiguous", async () => {
    const e = await db.error("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'])");
    expect(e.message).to.contain("dimension 'city' is ambiguous -- table 'a'");
  });

  describe("role-playing against an ambiguous diamond", () => {
    before(async () => {
      await db.run(`
        CREATE TABLE regions (region_id INTEGER, name VARCHAR);
        CREATE TABLE customers (customer_id INTEGER, region_id INTEGER);
        CREATE TABLE stores (store_id INTEGER, region_id INTEGER);
        CREATE TABLE sales_orders (order_id INTEGER, customer_id INTEGER, store_id INTEGER, amount DOUBLE);
        INSERT INTO regions VALUES (1, 'North'), (2, 'South');
        INSERT INTO customers VALUES (1, 1), (2, 2);
        INSERT INTO stores VALUES (1, 2), (2, 2);
        INSERT INTO sales_orders VALUES (1, 1, 1, 10), (2, 2, 2, 20), (3, 1, 2, 5);`);
    });

    it("a table reached from two different tables is refused at CREATE", async () => {
      const e = await db.error(`CREATE SEMANTIC VIEW sales AS
        TABLES (o AS sales_orders PRIMARY KEY (order_id), c AS customers PRIMARY KEY (customer_id), s AS stores PRIMARY KEY (store_id), r AS regions PRIMARY KEY (region_id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, order_store AS o(store_id) REFERENCES s,
                       customer_region AS c(region_id) REFERENCES r, store_region AS s(region_id) REFERENCES r)
        DIMENSIONS (r.region AS r.name)
        METRICS (o.revenue AS SUM(o.amount))`);
      expect(e.message).to.contain(
        "diamond: 'r' is reachable from multiple tables ('c', 's'); the join path is ambiguous. Declare the target under a second table alias so it is joined once per path.",
      );
    });

    it("the fix: one alias per path, each with its own dimension", async () => {
      await db.run(`CREATE SEMANTIC VIEW sales AS
        TABLES (o AS sales_orders PRIMARY KEY (order_id), c AS customers PRIMARY KEY (customer_id), s AS stores PRIMARY KEY (store_id),
                cr AS regions PRIMARY KEY (region_id), sr AS regions PRIMARY KEY (region_id))
        RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, order_store AS o(store_id) REFERENCES s,
                       customer_region AS c(region_id) REFERENCES cr, store_region AS s(region_id) REFERENCES sr)
        DIMENSIONS (cr.customer_region AS cr.name, sr.store_region AS sr.name)
        METRICS (o.revenue AS SUM(o.amount))`);
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('sales', dimensions := ['customer_region', 'store_region'], metrics := ['revenue'])",
        ),
      ).to.deep.equal([
        ["North", "South", 15],
        ["South", "South", 20],
      ]);
    });
  });

  it("a dimension on a descendant of the role-played table cannot be disambiguated by USING", async () => {
    await db.run(`
      CREATE TABLE countries (code VARCHAR, continent VARCHAR);
      INSERT INTO countries VALUES ('US', 'America'), ('UK', 'Europe');
      CREATE SEMANTIC VIEW flight_regions AS
      TABLES (f AS flights PRIMARY KEY (flight_id), a AS airports PRIMARY KEY (airport_code), k AS countries PRIMARY KEY (code))
      RELATIONSHIPS (dep_airport AS f(departure_code) REFERENCES a, arr_airport AS f(arrival_code) REFERENCES a, airport_country AS a(country) REFERENCES k)
      FACTS (a.code_lower AS lower(a.airport_code))
      DIMENSIONS (a.city AS a.city, k.continent AS k.continent)
      METRICS (f.departure_count USING (dep_airport) AS COUNT(*))`);
    // On the role-played table itself, USING picks the role ...
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('flight_regions', dimensions := ['city'], metrics := ['departure_count'])",
      ),
    ).to.deep.equal([
      ["London", 1n],
      ["Los Angeles", 1n],
      ["New York", 3n],
    ]);
    // ... one table further it cannot.
    const e = await db.error(
      "SELECT * FROM semantic_view('flight_regions', dimensions := ['continent'], metrics := ['departure_count'])",
    );
    expect(e.message).to.contain(
      "dimension 'continent' is ambiguous -- table 'k' is reached through role-playing table 'a'",
    );
    // Facts carry no USING context: a fact on the role-played table is ambiguous too.
    const f = await db.error("SELECT * FROM semantic_view('flight_regions', facts := ['code_lower'])");
    expect(f.message).to.contain(
      "fact 'code_lower' is ambiguous -- table 'a' is reached via multiple relationships: [dep_airport, arr_airport]",
    );
  });

  it("a pre-aggregation filter on the role-played table is refused even with USING", async () => {
    const e = await db.error(
      "SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['departure_count'], where_clause := 'country = ''US''')",
    );
    expect(e.message).to.contain("where_clause is ambiguous -- table 'a'");
  });
});
