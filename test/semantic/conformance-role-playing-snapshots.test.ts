/**
 * Semi-additive metrics over role-playing tables, as the extension answers them: a metric written
 * `m USING (rel) NON ADDITIVE BY (<dimension on the role-played table>)` ranks its snapshot by the
 * role its USING names (the dimension need not be queried); without USING the dimension is
 * ambiguous, with the extension's message.
 */
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";

describe("conformance: semi-additive metrics over role-playing tables", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE airports (code VARCHAR, city VARCHAR, opened DATE);
      CREATE TABLE flights (id INTEGER, dep VARCHAR, arr VARCHAR, day DATE, seats INTEGER);
      INSERT INTO airports VALUES
        ('A', 'Amsterdam', DATE '2000-01-01'), ('B', 'Berlin', DATE '2010-01-01'), ('C', 'Cairo', DATE '2005-01-01');
      INSERT INTO flights VALUES
        (1, 'A', 'B', DATE '2024-01-01', 100), (2, 'A', 'C', DATE '2024-01-02', 150),
        (3, 'B', 'A', DATE '2024-01-01', 80), (4, 'C', 'A', DATE '2024-01-02', 60);
      CREATE SEMANTIC VIEW flights_view AS
      TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code))
      RELATIONSHIPS (dep_airport AS f(dep) REFERENCES a, arr_airport AS f(arr) REFERENCES a)
      DIMENSIONS (a.city AS a.city, f.day AS f.day, a.opened AS a.opened)
      METRICS (
        f.last_dep_seats USING (dep_airport) NON ADDITIVE BY (day) AS SUM(f.seats),
        f.newest_arrival_seats USING (arr_airport) NON ADDITIVE BY (opened) AS SUM(f.seats),
        f.oldest_departure_seats USING (dep_airport) NON ADDITIVE BY (opened DESC) AS SUM(f.seats)
      );
      CREATE SEMANTIC VIEW no_using AS
      TABLES (f AS flights PRIMARY KEY (id), a AS airports PRIMARY KEY (code))
      RELATIONSHIPS (dep_airport AS f(dep) REFERENCES a, arr_airport AS f(arr) REFERENCES a)
      DIMENSIONS (a.opened AS a.opened)
      METRICS (f.seats_at_newest NON ADDITIVE BY (opened) AS SUM(f.seats));`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("a snapshot on a dimension of the role its USING names, unqueried", async () => {
    // Arrivals at the newest airport (Berlin, opened 2010): flight 1 only.
    expect(
      await text("SELECT * FROM semantic_view('flights_view', metrics := ['newest_arrival_seats'])"),
    ).to.deep.equal([["100"]]);
    // Per day: day 1 arrives at Berlin (100) and Amsterdam; day 2 at Cairo (150, opened 2005) and Amsterdam.
    expect(
      await text(
        "SELECT * FROM semantic_view('flights_view', dimensions := ['day'], metrics := ['newest_arrival_seats']) ORDER BY ALL",
      ),
    ).to.deep.equal([
      ["2024-01-01", "100"],
      ["2024-01-02", "150"],
    ]);
    // DESC: departures from the oldest airport (Amsterdam, 2000): flights 1 and 2 tie, and both count.
    expect(
      await text("SELECT * FROM semantic_view('flights_view', metrics := ['oldest_departure_seats'])"),
    ).to.deep.equal([["250"]]);
  });

  it("grouped by the role-played city, each role scoped by USING", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('flights_view', dimensions := ['city'], metrics := ['last_dep_seats']) ORDER BY ALL",
      ),
    ).to.deep.equal([
      ["Amsterdam", "150"],
      ["Berlin", "80"],
      ["Cairo", "60"],
    ]);
  });

  it("without USING the NON ADDITIVE BY dimension is ambiguous", async () => {
    const error = await db.error("SELECT * FROM semantic_view('no_using', metrics := ['seats_at_newest'])");
    expect(error.message).to.equal(
      "semantic view 'no_using': dimension 'opened' is ambiguous -- table 'a' is reached via multiple relationships: [dep_airport, arr_airport]. Specify a metric with USING to disambiguate, or use a dimension from a non-ambiguous table.",
    );
  });
});
