/**
 * docs/how-to/role-playing-dimensions.rst: one airports table reached as departure and as
 * arrival; USING picks the path per metric, derived metrics inherit it, ambiguity is an error.
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
    expect(await db.rows("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['departure_count']) ORDER BY city")).to.deep.equal([
      ["London", 1n],
      ["Los Angeles", 1n],
      ["New York", 3n],
    ]);
  });

  it("arrivals by city resolve city through arr_airport", async () => {
    expect(await db.rows("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city', 'country'], metrics := ['arrival_count']) ORDER BY city")).to.deep.equal([
      ["London", "UK", 1n],
      ["Los Angeles", "US", 2n],
      ["New York", "US", 2n],
    ]);
  });

  it("a dimension on the flights table works with both metrics", async () => {
    expect(await db.rows("SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['departure_count', 'arrival_count']) ORDER BY carrier")).to.deep.equal([
      ["AA", 2n, 2n],
      ["BA", 2n, 2n],
      ["DL", 1n, 1n],
    ]);
  });

  it("a derived metric over both roles works with a non-ambiguous dimension", async () => {
    expect(await db.rows("SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['total_flights']) ORDER BY carrier")).to.deep.equal([
      ["AA", 4n],
      ["BA", 4n],
      ["DL", 2n],
    ]);
  });

  it("the derived metric with the ambiguous city dimension fails", async () => {
    const e = await db.error("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['total_flights'])");
    expect(e.message).to.contain("dimension 'city' is ambiguous -- table 'a' is reached via multiple relationships: [dep_airport, arr_airport]");
  });

  it("two co-queried metrics with different USING paths are ambiguous", async () => {
    const e = await db.error("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'], metrics := ['departure_count', 'arrival_count'])");
    expect(e.message).to.contain("dimension 'city' is ambiguous");
  });

  it("a dimension alone on the role-played table is ambiguous", async () => {
    const e = await db.error("SELECT * FROM semantic_view('flight_analytics', dimensions := ['city'])");
    expect(e.message).to.contain("dimension 'city' is ambiguous -- table 'a'");
  });

  it("a pre-aggregation filter on the role-played table is refused even with USING", async () => {
    const e = await db.error("SELECT * FROM semantic_view('flight_analytics', dimensions := ['carrier'], metrics := ['departure_count'], where_clause := 'country = ''US''')");
    expect(e.message).to.contain("where_clause is ambiguous -- table 'a'");
  });
});
