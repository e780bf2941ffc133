/**
 * docs/how-to/filtering.rst: where_clause (before aggregation) against an outer WHERE (after),
 * named filters, both together, and the filter's own joins and checks.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/filtering", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, region VARCHAR, amount DECIMAL(10,2), ordered_at DATE);
      INSERT INTO orders VALUES
          (1, 'East', 100.00, DATE '2023-11-02'),
          (2, 'East', 250.00, DATE '2024-01-15'),
          (3, 'East',  50.00, DATE '2024-02-20'),
          (4, 'West', 400.00, DATE '2023-12-10'),
          (5, 'West', 150.00, DATE '2024-03-05');
      CREATE SEMANTIC VIEW order_metrics AS
      TABLES (
          o AS orders PRIMARY KEY (id)
      )
      DIMENSIONS (
          o.region     AS o.region,
          o.ordered_at AS o.ordered_at
      )
      METRICS (
          o.revenue     AS SUM(o.amount),
          o.order_count AS COUNT(*)
      );`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("unfiltered revenue by region covers all five orders", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count']) ORDER BY region",
      ),
    ).to.deep.equal([
      ["East", "400.00", "3"],
      ["West", "550.00", "2"],
    ]);
  });

  it("an outer WHERE keeps result rows, including by metric value", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue']) WHERE region = 'East'",
      ),
    ).to.deep.equal([["East", "400.00"]]);
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue']) WHERE revenue > 500",
      ),
    ).to.deep.equal([["West", "550.00"]]);
  });

  it("where_clause recomputes the metrics over the matching rows", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue', 'order_count'], where_clause := 'ordered_at >= DATE ''2024-01-01''') ORDER BY region",
      ),
    ).to.deep.equal([
      ["East", "300.00", "2"],
      ["West", "150.00", "1"],
    ]);
  });

  it("an outer WHERE on a column not in the output fails; adding it changes the grain", async () => {
    let failure: unknown;
    try {
      await db.run(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue']) WHERE ordered_at >= DATE '2024-01-01'",
      );
    } catch (e) {
      failure = e;
    }
    expect(String(failure)).to.match(/ordered_at/);
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region', 'ordered_at'], metrics := ['revenue']) WHERE ordered_at >= DATE '2024-01-01' ORDER BY region, ordered_at",
      ),
    ).to.deep.equal([
      ["East", "2024-01-15", "250.00"],
      ["East", "2024-02-20", "50.00"],
      ["West", "2024-03-05", "150.00"],
    ]);
  });

  it("a named filter (LABELS = (FILTER)) composes with other predicates", async () => {
    await db.run(`CREATE OR REPLACE SEMANTIC VIEW order_metrics AS
      TABLES (o AS orders PRIMARY KEY (id))
      DIMENSIONS (o.region AS o.region, o.ordered_at AS o.ordered_at, o.is_2024 AS o.ordered_at >= DATE '2024-01-01' LABELS = (FILTER))
      METRICS (o.revenue AS SUM(o.amount), o.order_count AS COUNT(*))`);
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue'], where_clause := 'is_2024') ORDER BY region",
      ),
    ).to.deep.equal([
      ["East", "300.00"],
      ["West", "150.00"],
    ]);
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', metrics := ['revenue'], where_clause := 'is_2024 AND region = ''East''')",
      ),
    ).to.deep.equal([["300.00"]]);
  });

  it("both filters in one query, each doing its own job", async () => {
    expect(
      await text(
        "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue'], where_clause := 'ordered_at >= DATE ''2024-01-01''') WHERE revenue > 200 ORDER BY revenue DESC",
      ),
    ).to.deep.equal([["East", "300.00"]]);
  });

  it("an empty where_clause is absent; a metric in it is refused", async () => {
    expect(
      await text("SELECT * FROM semantic_view('order_metrics', metrics := ['order_count'], where_clause := '  ')"),
    ).to.deep.equal([["5"]]);
    const e = await db.error(
      "SELECT * FROM semantic_view('order_metrics', dimensions := ['region'], metrics := ['revenue'], where_clause := 'revenue > 200')",
    );
    expect(e.message).to.contain("where_clause cannot reference metric 'revenue'");
  });

  it("a member the predicate reaches is fan-trap checked like a dimension", async () => {
    await db.run(`
      CREATE TABLE notes (id INTEGER, order_id INTEGER, flagged BOOLEAN);
      INSERT INTO notes VALUES (1, 2, true), (2, 2, true), (3, 5, false);
      CREATE SEMANTIC VIEW noted AS
      TABLES (o AS orders PRIMARY KEY (id), n AS notes PRIMARY KEY (id))
      RELATIONSHIPS (note_order AS n(order_id) REFERENCES o)
      DIMENSIONS (o.region AS o.region, n.flagged AS n.flagged LABELS = (FILTER))
      METRICS (o.revenue AS SUM(o.amount), n.note_count AS COUNT(*))`);
    const e = await db.error(
      "SELECT * FROM semantic_view('noted', dimensions := ['region'], metrics := ['revenue'], where_clause := 'flagged')",
    );
    expect(e.message).to.contain(
      "fan trap detected -- metric 'revenue' (table 'o') would be duplicated when joined to where_clause (table 'n') via relationship 'note_order'",
    );
    expect(
      await text(
        "SELECT * FROM semantic_view('noted', dimensions := ['region'], metrics := ['note_count'], where_clause := 'flagged')",
      ),
    ).to.deep.equal([["East", "2"]]);
  });
});
