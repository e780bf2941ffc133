/**
 * docs/how-to/metadata-annotations.rst: COMMENT (view, table and member level), WITH SYNONYMS, PRIVATE,
 * LABELS = (FILTER) named filters, how DESCRIBE and SHOW report them, and the troubleshooting notes.
 * Expected rows are worked out by hand from the data below.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/metadata-annotations", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE customers (id INTEGER, name VARCHAR);
      INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bo');
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR, country VARCHAR, amount INTEGER);
      INSERT INTO orders VALUES (1, 1, 'East', 'US', 150), (2, 1, 'East', 'US', 50), (3, 2, 'West', 'CA', 300), (4, 2, 'West', 'US', 120);
      CREATE TABLE line_items (id INTEGER, region VARCHAR, extended_price INTEGER, discount DOUBLE, price INTEGER, cost INTEGER);
      INSERT INTO line_items VALUES (1, 'East', 100, 0.5, 100, 60), (2, 'East', 50, 0, 50, 30), (3, 'West', 80, 0.25, 80, 70);`);
  });
  after(() => db.close());

  it("a view-level comment is set and unset with ALTER, shown by SHOW SEMANTIC VIEWS and DESCRIBE", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW sales AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount))",
    );
    await db.run("ALTER SEMANTIC VIEW sales SET COMMENT = 'Revenue and order analytics for the North America region'");
    const shown = async () => (await db.run("SELECT comment FROM list_semantic_views() WHERE name = 'sales'")).rows;
    const described = async () =>
      (
        await db.run(
          "SELECT property, property_value FROM describe_semantic_view('sales') WHERE object_kind = 'SEMANTIC_VIEW'",
        )
      ).rows;
    expect(await shown()).to.deep.equal([["Revenue and order analytics for the North America region"]]);
    expect(await described()).to.deep.include.members([
      ["COMMENT", "Revenue and order analytics for the North America region"],
    ]);
    await db.run("ALTER SEMANTIC VIEW sales UNSET COMMENT");
    expect(await shown()).to.deep.equal([[""]]);
    expect((await described()).filter((r) => r[0] === "COMMENT")).to.deep.equal([]);
  });

  it("the table-level comment example: customers, in no relationship, is an orphan the validator rejects", async () => {
    // The page lists `c AS customers` without a RELATIONSHIPS clause; the v0.12 graph rules reject a
    // non-base table no relationship mentions. With the relationship added, both comments are kept.
    const e = await db.error(`
      CREATE OR REPLACE SEMANTIC VIEW sales AS
      TABLES (
          o AS orders    PRIMARY KEY (id) COMMENT = 'Core order transactions',
          c AS customers PRIMARY KEY (id) COMMENT = 'Customer master data'
      )
      DIMENSIONS (o.region AS o.region)
      METRICS (o.revenue AS SUM(o.amount))`);
    expect(e.message).to.contain("orphan table 'c' is not connected by any relationship");
    await db.run(`
      CREATE OR REPLACE SEMANTIC VIEW sales AS
      TABLES (
          o AS orders    PRIMARY KEY (id) COMMENT = 'Core order transactions',
          c AS customers PRIMARY KEY (id) COMMENT = 'Customer master data'
      )
      RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
      DIMENSIONS (o.region AS o.region)
      METRICS (o.revenue AS SUM(o.amount))`);
    const { rows } = await db.run(
      "SELECT object_name, property_value FROM describe_semantic_view('sales') WHERE object_kind = 'TABLE' AND property = 'COMMENT' ORDER BY 1",
    );
    expect(rows).to.deep.equal([
      ["customers", "Customer master data"],
      ["orders", "Core order transactions"],
    ]);
  });

  it("comments on facts, dimensions and metrics are shown by DESCRIBE and the SHOW commands", async () => {
    await db.run(`
      CREATE OR REPLACE SEMANTIC VIEW net AS
      TABLES (
          li AS line_items PRIMARY KEY (id)
      )
      FACTS (
          li.net_price AS li.extended_price * (1 - li.discount) COMMENT = 'Price after discount'
      )
      DIMENSIONS (
          li.region AS li.region COMMENT = 'Sales region from shipping address'
      )
      METRICS (
          li.total_net AS SUM(li.net_price) COMMENT = 'Net revenue after discounts'
      );`);
    const { rows } = await db.run(
      "SELECT object_kind, object_name, property_value FROM describe_semantic_view('net') WHERE property = 'COMMENT' ORDER BY 1",
    );
    expect(rows).to.deep.equal([
      ["DIMENSION", "region", "Sales region from shipping address"],
      ["FACT", "net_price", "Price after discount"],
      ["METRIC", "total_net", "Net revenue after discounts"],
    ]);
    expect((await db.run("SELECT name, comment FROM show_semantic_facts('net')")).rows).to.deep.equal([
      ["net_price", "Price after discount"],
    ]);
    expect((await db.run("SELECT name, comment FROM show_semantic_metrics('net')")).rows).to.deep.equal([
      ["total_net", "Net revenue after discounts"],
    ]);
    // 100 * 0.5 + 50 = 100 (East), 80 * 0.75 = 60 (West)
    expect(
      await db.rows("SELECT * FROM semantic_view('net', dimensions := ['region'], metrics := ['total_net'])"),
    ).to.deep.equal([
      ["East", 100],
      ["West", 60],
    ]);
  });

  describe("synonyms", () => {
    before(async () => {
      await db.run(`
        CREATE OR REPLACE SEMANTIC VIEW sales AS
        TABLES (
            o AS orders PRIMARY KEY (id) COMMENT = 'Order data' WITH SYNONYMS = ('transactions', 'purchases')
        )
        DIMENSIONS (
            o.region AS o.region COMMENT = 'Sales region from shipping address' WITH SYNONYMS = ('sales_region', 'territory')
        )
        METRICS (
            o.revenue AS SUM(o.amount) COMMENT = 'Total sales' WITH SYNONYMS = ('total_sales', 'gmv')
        );`);
    });

    it("SHOW SEMANTIC DIMENSIONS shows the row the page prints", async () => {
      expect((await db.run("SHOW SEMANTIC DIMENSIONS IN sales")).rows).to.deep.equal([
        [
          "memory",
          "main",
          "sales",
          "orders",
          "region",
          "",
          '["sales_region","territory"]',
          "Sales region from shipping address",
        ],
      ]);
    });

    it("DESCRIBE shows synonyms as a JSON array on tables (named by their table), dimensions and metrics", async () => {
      const { rows } = await db.run(
        "SELECT object_kind, object_name, property_value FROM describe_semantic_view('sales') WHERE property = 'SYNONYMS' ORDER BY 1",
      );
      expect(rows).to.deep.equal([
        ["DIMENSION", "region", '["sales_region","territory"]'],
        ["METRIC", "revenue", '["total_sales","gmv"]'],
        ["TABLE", "orders", '["transactions","purchases"]'],
      ]);
    });

    it("synonyms do not resolve as names in queries", async () => {
      const dim = await db.error(
        "SELECT * FROM semantic_view('sales', dimensions := ['territory'], metrics := ['revenue'])",
      );
      expect(dim.message).to.contain("unknown dimension 'territory'");
      const metric = await db.error("SELECT * FROM semantic_view('sales', metrics := ['gmv'])");
      expect(metric.message).to.contain("unknown metric 'gmv'");
    });
  });

  describe("access modifiers", () => {
    before(async () => {
      await db.run(`
        CREATE SEMANTIC VIEW margins AS
        TABLES (
            li AS line_items PRIMARY KEY (id)
        )
        FACTS (
            PRIVATE li.raw_margin AS li.price - li.cost
        )
        METRICS (
            li.total_revenue AS SUM(li.price),
            PRIVATE li.total_cost AS SUM(li.cost),
            li.total_margin AS SUM(li.raw_margin),
            profit AS total_revenue - total_cost
        );`);
    });

    it("public metrics compute from the private fact and metric", async () => {
      // revenue 230, cost 160, margin 40 + 20 + 10 = 70, profit 230 - 160 = 70
      expect(
        await db.rows("SELECT * FROM semantic_view('margins', metrics := ['total_revenue', 'total_margin', 'profit'])"),
      ).to.deep.equal([[230n, 70n, 70n]]);
    });

    it("private items cannot be queried, are absent from SHOW COLUMNS, and present in DESCRIBE", async () => {
      expect((await db.error("SELECT * FROM semantic_view('margins', metrics := ['total_cost'])")).message).to.contain(
        "metric 'total_cost' is private and cannot be queried directly",
      );
      expect((await db.error("SELECT * FROM semantic_view('margins', facts := ['raw_margin'])")).message).to.contain(
        "fact 'raw_margin' is private and cannot be queried directly",
      );
      const columns = (await db.run("SELECT column_name FROM show_columns_in_semantic_view('margins') ORDER BY 1"))
        .rows;
      expect(columns).to.deep.equal([["profit"], ["total_margin"], ["total_revenue"]]);
      const access = (
        await db.run(
          "SELECT object_name, property_value FROM describe_semantic_view('margins') WHERE property = 'ACCESS_MODIFIER' ORDER BY 1",
        )
      ).rows;
      expect(access).to.deep.equal([
        ["profit", "PUBLIC"],
        ["raw_margin", "PRIVATE"],
        ["total_cost", "PRIVATE"],
        ["total_margin", "PUBLIC"],
        ["total_revenue", "PUBLIC"],
      ]);
    });

    it("dimensions take no access modifier", async () => {
      const e = await db.error(
        "CREATE SEMANTIC VIEW h AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (PRIVATE o.region AS o.region) METRICS (o.revenue AS SUM(o.amount))",
      );
      expect(e.message).to.contain("cannot be PRIVATE");
    });
  });

  describe("named filters", () => {
    before(async () => {
      await db.run(`
        CREATE SEMANTIC VIEW filters AS
        TABLES (
            o AS orders PRIMARY KEY (id)
        )
        FACTS (
            o.amount AS o.amount,
            o.is_large AS o.amount > 100 LABELS = (FILTER)
        )
        DIMENSIONS (
            o.is_domestic AS o.country = 'US' LABELS = (FILTER)
        )
        METRICS (
            o.revenue AS SUM(o.amount)
        );`);
    });

    it("filters apply before aggregation in where_clause", async () => {
      // US and > 100: orders 1 (150) and 4 (120)
      expect(
        await db.rows(
          "SELECT * FROM semantic_view('filters', metrics := ['revenue'], where_clause := 'is_domestic AND is_large')",
        ),
      ).to.deep.equal([[270n]]);
    });

    it("a filter is still a queryable member", async () => {
      expect(
        await db.rows("SELECT * FROM semantic_view('filters', dimensions := ['is_domestic'], metrics := ['revenue'])"),
      ).to.deep.equal([
        [false, 300n],
        [true, 320n],
      ]);
    });

    it('DESCRIBE reports LABELS ["FILTER"] only on labelled members', async () => {
      const { rows } = await db.run(
        "SELECT object_kind, object_name, property_value FROM describe_semantic_view('filters') WHERE property = 'LABELS' ORDER BY 1",
      );
      expect(rows).to.deep.equal([
        ["DIMENSION", "is_domestic", '["FILTER"]'],
        ["FACT", "is_large", '["FILTER"]'],
      ]);
      const [[ddl]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'filters')")).rows as [[string]];
      expect(ddl).to.contain("o.is_large AS o.amount > 100 LABELS = (FILTER)");
    });

    it("any label but FILTER is rejected at CREATE", async () => {
      const e = await db.error(
        "CREATE SEMANTIC VIEW tagged AS TABLES (o AS orders PRIMARY KEY (id)) FACTS (o.x AS o.amount LABELS = (PII)) DIMENSIONS (o.region AS o.region) METRICS (o.revenue AS SUM(o.amount))",
      );
      expect(e.message).to.contain("unknown label 'PII'");
    });
  });

  describe("annotation order", () => {
    const view = (annotations: string) =>
      `CREATE OR REPLACE SEMANTIC VIEW ordered AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region ${annotations}) METRICS (o.revenue AS SUM(o.amount))`;

    it("COMMENT and WITH SYNONYMS parse the same in either order", async () => {
      await db.run(view("WITH SYNONYMS = ('territory') COMMENT = 'c'"));
      const [[first]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'ordered')")).rows as [[string]];
      await db.run(view("COMMENT = 'c' WITH SYNONYMS = ('territory')"));
      const [[second]] = (await db.run("SELECT get_ddl('SEMANTIC_VIEW', 'ordered')")).rows as [[string]];
      expect(first).to.equal(second);
    });

    it("leftover text or a repeated clause is an error", async () => {
      await db.error(view("COMMENT = 'a' banana"));
      await db.error(view("COMMENT = 'a' COMMENT = 'b'"));
    });
  });
});
