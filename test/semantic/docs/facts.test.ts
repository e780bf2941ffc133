/**
 * docs/how-to/facts.rst: facts as reusable row-level logic — inlined into metrics, chained, scoped to
 * their table in multi-table views, queried directly, annotated (COMMENT, WITH SYNONYMS, PRIVATE), seen
 * inlined by explain_semantic_view, and the page's troubleshooting errors. Expected rows are worked out
 * by hand from the data below (values chosen to be exact in DOUBLE).
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/facts", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, country VARCHAR);
      INSERT INTO customers VALUES (1, 'DE'), (2, 'FR');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR);
      INSERT INTO orders VALUES (1, 1, 'North'), (2, 2, 'South');
      CREATE TABLE line_items (id INTEGER, order_id INTEGER, region VARCHAR, extended_price DOUBLE,
        discount DOUBLE, tax_rate DOUBLE, price DOUBLE, cost DOUBLE);
      -- net_price: 75, 50, 40; tax_amount: 37.5, 12.5, 10; raw_margin: 40, 20, 10
      INSERT INTO line_items VALUES
        (1, 1, 'East', 100, 0.25, 0.5, 100, 60),
        (2, 1, 'East', 50, 0, 0.25, 50, 30),
        (3, 2, 'West', 80, 0.5, 0.25, 80, 70);`);
  });
  after(() => db.close());

  it("a basic fact is inlined into the metric that references it", async () => {
    await db.run(`
      CREATE SEMANTIC VIEW sales AS
      TABLES (
          li AS line_items PRIMARY KEY (id)
      )
      FACTS (
          li.net_price AS li.extended_price * (1 - li.discount)
      )
      DIMENSIONS (
          li.region AS li.region
      )
      METRICS (
          li.total_net AS SUM(li.net_price)
      );`);
    expect(
      await db.rows("SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['total_net'])"),
    ).to.deep.equal([
      ["East", 125],
      ["West", 40],
    ]);
  });

  it("chained facts resolve in dependency order, both metrics fully inlined", async () => {
    await db.run(`
      CREATE OR REPLACE SEMANTIC VIEW sales AS
      TABLES (
          li AS line_items PRIMARY KEY (id)
      )
      FACTS (
          li.net_price  AS li.extended_price * (1 - li.discount),
          li.tax_amount AS li.net_price * li.tax_rate
      )
      DIMENSIONS (
          li.region AS li.region
      )
      METRICS (
          li.total_net AS SUM(li.net_price),
          li.total_tax AS SUM(li.tax_amount)
      );`);
    expect(
      await db.rows(
        "SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['total_net', 'total_tax'])",
      ),
    ).to.deep.equal([
      ["East", 125, 50],
      ["West", 40, 10],
    ]);
  });

  describe("the multi-table analytics view", () => {
    before(async () => {
      await db.run(`
        CREATE SEMANTIC VIEW analytics AS
        TABLES (
            li AS line_items PRIMARY KEY (id),
            o  AS orders      PRIMARY KEY (id),
            c  AS customers   PRIMARY KEY (id)
        )
        RELATIONSHIPS (
            li_to_order       AS li(order_id)    REFERENCES o,
            order_to_customer AS o(customer_id)  REFERENCES c
        )
        FACTS (
            li.net_price  AS li.extended_price * (1 - li.discount),
            li.tax_amount AS li.net_price * li.tax_rate
        )
        DIMENSIONS (
            o.region  AS o.region,
            c.country AS c.country
        )
        METRICS (
            li.total_net AS SUM(li.net_price),
            li.total_tax AS SUM(li.tax_amount)
        );`);
    });

    it("facts stay scoped to line items while dimensions come from orders and customers", async () => {
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('analytics', dimensions := ['country'], metrics := ['total_net', 'total_tax'])",
        ),
      ).to.deep.equal([
        ["DE", 125, 50],
        ["FR", 40, 10],
      ]);
      expect(
        await db.rows("SELECT * FROM semantic_view('analytics', dimensions := ['region'], metrics := ['total_net'])"),
      ).to.deep.equal([
        ["North", 125],
        ["South", 40],
      ]);
    });

    it("facts queried directly are row-level; dimensions ride along without GROUP BY", async () => {
      expect(
        await db.rows("SELECT * FROM semantic_view('analytics', facts := ['net_price', 'tax_amount'])"),
      ).to.deep.equal([
        [40, 10],
        [50, 12.5],
        [75, 37.5],
      ]);
      expect(
        await db.rows("SELECT * FROM semantic_view('analytics', dimensions := ['region'], facts := ['net_price'])"),
      ).to.deep.equal([
        ["North", 50],
        ["North", 75],
        ["South", 40],
      ]);
    });

    it("facts and metrics cannot be mixed in one query", async () => {
      const e = await db.error(
        "SELECT * FROM semantic_view('analytics', facts := ['net_price'], metrics := ['total_net'])",
      );
      expect(e.message).to.contain("cannot combine facts and metrics in the same query");
    });

    it("explain_semantic_view shows the fully inlined expression and no fact name", async () => {
      const { rows } = await db.run(
        "SELECT * FROM explain_semantic_view('analytics', dimensions := ['region'], metrics := ['total_net'])",
      );
      const lines = rows.map((r) => String(r[0]));
      const sql = lines.slice(lines.findIndex((l) => l.startsWith("-- Materialization")) + 1);
      const select = sql.slice(
        0,
        sql.findIndex((l) => l.startsWith("FROM")),
      );
      expect(select.join("\n")).to.contain("li.extended_price * (1 - li.discount)");
      expect(select.join("\n")).not.to.contain("net_price");
    });
  });

  describe("annotations", () => {
    it("the page's example derives profit_margin with an aggregate, which the validator rejects", async () => {
      // The page writes `profit_margin AS total_net - SUM(li.raw_margin)`; the extension's derived-metric
      // validator (src/graph/derived_metrics.rs) forbids aggregates in derived metrics, so it fails.
      const e = await db.error(`
        CREATE SEMANTIC VIEW annotated AS
        TABLES (li AS line_items PRIMARY KEY (id))
        FACTS (
            li.net_price  AS li.extended_price * (1 - li.discount) COMMENT = 'Price after discount',
            PRIVATE li.raw_margin AS li.price - li.cost WITH SYNONYMS = ('margin', 'gross_margin')
        )
        DIMENSIONS (li.region AS li.region)
        METRICS (
            li.total_net AS SUM(li.net_price),
            profit_margin AS total_net - SUM(li.raw_margin)
        )`);
      expect(e.message).to.contain(
        "derived metric 'profit_margin' must not contain aggregate function 'sum'. Derived metrics compose other metrics; use a regular metric for aggregation.",
      );
    });

    describe("the example with the aggregation moved into a base metric", () => {
      before(async () => {
        await db.run(`
          CREATE SEMANTIC VIEW annotated AS
          TABLES (li AS line_items PRIMARY KEY (id))
          FACTS (
              li.net_price  AS li.extended_price * (1 - li.discount) COMMENT = 'Price after discount',
              PRIVATE li.raw_margin AS li.price - li.cost WITH SYNONYMS = ('margin', 'gross_margin')
          )
          DIMENSIONS (li.region AS li.region)
          METRICS (
              li.total_net AS SUM(li.net_price),
              li.total_margin AS SUM(li.raw_margin),
              profit_margin AS total_net - total_margin
          )`);
      });

      it("a private fact still feeds metrics", async () => {
        expect(
          await db.rows(
            "SELECT * FROM semantic_view('annotated', dimensions := ['region'], metrics := ['profit_margin'])",
          ),
        ).to.deep.equal([
          ["East", 65],
          ["West", 30],
        ]);
      });

      it("a private fact cannot be queried directly and is left out of alias.*", async () => {
        const e = await db.error("SELECT * FROM semantic_view('annotated', facts := ['raw_margin'])");
        expect(e.message).to.contain("fact 'raw_margin' is private and cannot be queried directly");
        const { columns } = await db.run("SELECT * FROM semantic_view('annotated', facts := ['li.*'])");
        expect(columns.map((c) => c.name)).to.deep.equal(["net_price"]);
      });

      it("COMMENT and synonyms show in DESCRIBE and SHOW SEMANTIC FACTS", async () => {
        const described = await db.run(
          "SELECT object_name, property, property_value FROM describe_semantic_view('annotated') WHERE object_kind = 'FACT' AND property IN ('COMMENT', 'SYNONYMS', 'ACCESS_MODIFIER') ORDER BY 1, 2",
        );
        expect(described.rows).to.deep.include.members([
          ["net_price", "COMMENT", "Price after discount"],
          ["raw_margin", "SYNONYMS", '["margin","gross_margin"]'],
        ]);
        const facts = await db.run(
          "SELECT name, synonyms, comment FROM show_semantic_facts('annotated') ORDER BY name",
        );
        expect(facts.rows).to.deep.include.members([["net_price", "[]", "Price after discount"]]);
      });
    });
  });

  describe("troubleshooting", () => {
    it("circular fact references fail at CREATE naming the facts", async () => {
      const e = await db.error(`
        CREATE SEMANTIC VIEW cyclic AS
        TABLES (li AS line_items PRIMARY KEY (id))
        FACTS (li.a AS li.b + 1, li.b AS li.a + 1)
        DIMENSIONS (li.region AS li.region)
        METRICS (li.n AS SUM(li.a))`);
      expect(e.message).to.contain("Circular dependency detected in facts");
      expect(e.message).to.contain("a -> b -> a");
    });

    it("an aggregate in a fact fails at CREATE", async () => {
      const e = await db.error(`
        CREATE SEMANTIC VIEW aggregated AS
        TABLES (li AS line_items PRIMARY KEY (id))
        FACTS (li.total AS SUM(li.price))
        DIMENSIONS (li.region AS li.region)
        METRICS (li.n AS SUM(li.total))`);
      expect(e.message).to.contain("Fact 'total' contains aggregate function 'sum'");
    });
  });
});
