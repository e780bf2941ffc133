/**
 * docs/how-to/window-metrics.rst (extension v0.12) on real DuckDB: PARTITION BY EXCLUDING, fixed
 * PARTITION BY, ORDER BY with NULLS, frames, extra arguments, required dimensions, the mixing rule,
 * the troubleshooting errors, SHOW ... FOR METRIC, DESCRIBE and the DDL/YAML round trips. Expected
 * rows are computed by hand from the seeded sales below.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

// Per store and date: S1 01-01 15, 01-02 20, 01-04 7 (no 01-03); S2 01-01 3, 01-02 9.
const SALES = `
  CREATE TABLE sales (id INTEGER, store VARCHAR, sale_date DATE, region VARCHAR, quantity INTEGER);
  INSERT INTO sales VALUES
    (1, 'S1', '2026-01-01', 'EU', 10), (2, 'S1', '2026-01-01', 'EU', 5), (3, 'S1', '2026-01-02', 'EU', 20),
    (4, 'S1', '2026-01-04', 'EU', 7), (5, 'S2', '2026-01-01', 'US', 3), (6, 'S2', '2026-01-02', 'US', 9);`;

const VIEW = `
  CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (s AS sales PRIMARY KEY (id))
  DIMENSIONS (s.store AS s.store, s.date AS s.sale_date, s.region AS s.region)
  METRICS (
    s.total_qty AS SUM(s.quantity),
    PRIVATE s.hidden_qty AS SUM(s.quantity),
    double_qty AS total_qty * 2,
    s.rolling_avg AS
        AVG(total_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date NULLS LAST),
    s.store_avg AS AVG(total_qty) OVER (PARTITION BY store ORDER BY date NULLS LAST),
    s.rolling_avg_2d AS AVG(total_qty) OVER (PARTITION BY EXCLUDING date
        ORDER BY date NULLS LAST
        RANGE BETWEEN INTERVAL '1 days' PRECEDING AND CURRENT ROW),
    s.prev_qty AS LAG(total_qty, 1) OVER (PARTITION BY EXCLUDING date ORDER BY date NULLS LAST),
    s.next_qty_desc AS LAG(total_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date DESC),
    s.running AS SUM(hidden_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
    s.prev_double AS LAG(double_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date)
  );`;

describe("docs: how-to/window-metrics", () => {
  let session: DocsRunner;
  before(async () => {
    session = await DocsRunner.open();
    await session.run(SALES + VIEW);
  });
  after(() => session.close());

  const q = async (dims: string[], metrics: string[], where?: string): Promise<unknown[][]> => {
    const list = (xs: string[]): string => `[${xs.map((x) => `'${x}'`).join(", ")}]`;
    const dimCols = dims.map((d) => (d === "date" ? `strftime("date", '%m-%d') AS "date"` : `"${d}"`));
    const r = await session.run(
      `SELECT ${[...dimCols, ...metrics.map((m) => `"${m}"`)].join(", ")} FROM semantic_view('sales', dimensions := ${list(dims)},
         metrics := ${list(metrics)}${where === undefined ? "" : `, where_clause := '${where.replace(/'/g, "''")}'`}) ORDER BY ALL`,
    );
    return r.rows;
  };

  it("PARTITION BY EXCLUDING date: partitioned by the other queried dimensions, ordered by date", async () => {
    expect(await q(["store", "date"], ["rolling_avg"])).to.deep.equal([
      ["S1", "01-01", 15],
      ["S1", "01-02", 17.5],
      ["S1", "01-04", 14],
      ["S2", "01-01", 3],
      ["S2", "01-02", 6],
    ]);
    // Only date queried: one partition over the per-date totals 18, 29, 7.
    expect(await q(["date"], ["rolling_avg"])).to.deep.equal([
      ["01-01", 18],
      ["01-02", 23.5],
      ["01-04", 18],
    ]);
  });

  it("fixed PARTITION BY store ignores other queried dimensions; EXCLUDING adapts to them", async () => {
    const expected = [
      ["S1", "01-01", "EU", 15, 15],
      ["S1", "01-02", "EU", 17.5, 17.5],
      ["S1", "01-04", "EU", 14, 14],
      ["S2", "01-01", "US", 3, 3],
      ["S2", "01-02", "US", 6, 6],
    ];
    expect(await q(["store", "date", "region"], ["store_avg", "rolling_avg"])).to.deep.equal(expected);
    // Region-only partition for EXCLUDING (store not queried) vs the fixed store partition.
    const byRegion = await session.run(
      `SELECT region, strftime("date", '%m-%d'), rolling_avg FROM semantic_view('sales', dimensions := ['region', 'date'], metrics := ['rolling_avg']) ORDER BY ALL`,
    );
    expect(byRegion.rows).to.deep.equal([
      ["EU", "01-01", 15],
      ["EU", "01-02", 17.5],
      ["EU", "01-04", 14],
      ["US", "01-01", 3],
      ["US", "01-02", 6],
    ]);
  });

  it("frame clauses pass through: RANGE over one day skips the missing 01-03", async () => {
    expect(await q(["store", "date"], ["rolling_avg_2d", "running"])).to.deep.equal([
      ["S1", "01-01", 15, 15n],
      ["S1", "01-02", 17.5, 35n],
      ["S1", "01-04", 7, 42n],
      ["S2", "01-01", 3, 3n],
      ["S2", "01-02", 6, 12n],
    ]);
  });

  it("extra arguments, ORDER BY DESC, and a derived inner metric", async () => {
    expect(await q(["store", "date"], ["prev_qty", "next_qty_desc", "prev_double"])).to.deep.equal([
      ["S1", "01-01", null, 20n, null],
      ["S1", "01-02", 15n, 7n, 30n],
      ["S1", "01-04", 20n, null, 40n],
      ["S2", "01-01", null, 9n, null],
      ["S2", "01-02", 3n, null, 6n],
    ]);
  });

  it("where_clause filters before the inner metric is aggregated", async () => {
    expect(await q(["date"], ["rolling_avg"], "store = 'S1'")).to.deep.equal([
      ["01-01", 15],
      ["01-02", 17.5],
      ["01-04", 14],
    ]);
  });

  it("required dimensions: the documented errors", async () => {
    const excl = await session.error(
      `SELECT * FROM semantic_view('sales', dimensions := ['store'], metrics := ['rolling_avg'])`,
    );
    expect(excl.message).to.contain(
      "semantic view 'sales': window function metric 'rolling_avg' requires dimension 'date' to be included in the query (used in PARTITION BY EXCLUDING)",
    );
    const part = await session.error(
      `SELECT * FROM semantic_view('sales', dimensions := ['date'], metrics := ['store_avg'])`,
    );
    expect(part.message).to.contain(
      "semantic view 'sales': window function metric 'store_avg' requires dimension 'store' to be included in the query (used in PARTITION BY)",
    );
    const order = await session.error(
      `SELECT * FROM semantic_view('sales', dimensions := ['store'], metrics := ['store_avg'])`,
    );
    expect(order.message).to.contain("requires dimension 'date' to be included in the query (used in ORDER BY)");
  });

  it("window and aggregate metrics are not mixed in one query", async () => {
    const error = await session.error(
      `SELECT * FROM semantic_view('sales', dimensions := ['store', 'date'], metrics := ['total_qty', 'rolling_avg'])`,
    );
    expect(error.message).to.contain(
      "semantic view 'sales': cannot mix window function metrics [rolling_avg] with aggregate metrics [total_qty] in the same query",
    );
  });

  it("SHOW SEMANTIC DIMENSIONS ... FOR METRIC marks the required dimensions", async () => {
    const r = await session.run(
      `SELECT name, required FROM show_semantic_dimensions_for_metric('sales', 'rolling_avg') ORDER BY name`,
    );
    expect(r.rows).to.deep.equal([
      ["date", true],
      ["region", false],
      ["store", false],
    ]);
  });

  describe("grains (explanation/metric-grain)", () => {
    let g: DocsRunner;
    before(async () => {
      g = await DocsRunner.open();
      await g.run(
        `CREATE TABLE customers (id INTEGER, region VARCHAR, balance DECIMAL(10,2));
         INSERT INTO customers VALUES (1, 'East', 500.00), (2, 'East', 300.00), (3, 'West', 900.00);
         CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount DECIMAL(10,2));
         INSERT INTO orders VALUES (1, 1, 25.00), (2, 1, 50.00), (3, 2, 75.00);
         CREATE SEMANTIC VIEW accounts AS
         TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
         RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c)
         DIMENSIONS (c.region AS c.region)
         METRICS (
           o.order_count AS COUNT(*),
           c.total_balance AS SUM(c.balance),
           c.running_balance AS SUM(total_balance) OVER (PARTITION BY EXCLUDING region ORDER BY region),
           o.running_orders AS SUM(order_count) OVER (PARTITION BY EXCLUDING region ORDER BY region)
         )`,
      );
    });
    after(() => g.close());

    it("a window metric over a parent-table aggregate is computed at that table's grain", async () => {
      // Per region: East 800.00 (not 1300.00, one balance per order), West 900.00.
      const r = await g.run(
        `SELECT region, running_balance::VARCHAR FROM semantic_view('accounts', dimensions := ['region'], metrics := ['running_balance']) ORDER BY ALL`,
      );
      expect(r.rows).to.deep.equal([
        ["East", "800.00"],
        ["West", "1700.00"],
      ]);
    });

    it("window metrics whose inner aggregates sit at different grains are refused as a fan trap", async () => {
      const error = await g.error(
        `SELECT * FROM semantic_view('accounts', dimensions := ['region'], metrics := ['running_balance', 'running_orders'])`,
      );
      expect(error.message).to.contain(
        "fan trap detected -- window metrics [running_balance, running_orders] wrap aggregates at different grains",
      );
    });
  });

  it("FOR METRIC on a window metric: every dimension, even past a fan-out (reference page example)", async () => {
    await using s = await DocsRunner.open();
    await s.run(
      `CREATE TABLE orders (id INTEGER, region VARCHAR, month VARCHAR, status VARCHAR, qty INTEGER);
       CREATE TABLE items (id INTEGER, order_id INTEGER, sku VARCHAR);
       CREATE SEMANTIC VIEW monthly_sv AS
       TABLES (i AS items PRIMARY KEY (id), o AS orders PRIMARY KEY (id))
       RELATIONSHIPS (item_order AS i(order_id) REFERENCES o)
       DIMENSIONS (o.region AS o.region, o.month AS o.month, o.status AS o.status, i.sku AS i.sku)
       METRICS (
         o.total_qty AS SUM(o.qty),
         o.avg_qty AS AVG(total_qty) OVER (PARTITION BY EXCLUDING region ORDER BY month)
       )`,
    );
    const forMetric = async (m: string): Promise<unknown[][]> =>
      (
        await s.run(
          `SELECT table_name, name, required FROM show_semantic_dimensions_for_metric('monthly_sv', '${m}') ORDER BY ALL`,
        )
      ).rows;
    expect(await forMetric("avg_qty")).to.deep.equal([
      ["items", "sku", false],
      ["orders", "month", true],
      ["orders", "region", true],
      ["orders", "status", false],
    ]);
    // The inner metric itself cannot reach items (one-to-many from orders).
    expect(await forMetric("total_qty")).to.deep.equal([
      ["orders", "month", false],
      ["orders", "region", false],
      ["orders", "status", false],
    ]);
  });

  it("DESCRIBE shows WINDOW_SPEC; get_ddl and the YAML export recreate the same view", async () => {
    const spec = await session.run(
      `SELECT property_value FROM describe_semantic_view('sales') WHERE object_name = 'rolling_avg' AND property = 'WINDOW_SPEC'`,
    );
    // The page's example omits NULLS; the extension's renderer (shared with GET_DDL) always writes it.
    expect(spec.rows).to.deep.equal([["AVG(total_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date NULLS LAST)"]]);
    const all = ["rolling_avg", "store_avg", "rolling_avg_2d", "prev_qty", "next_qty_desc", "running", "prev_double"];
    const before = await q(["store", "date", "region"], all);
    const [[ddl]] = (await session.run(`SELECT get_ddl('SEMANTIC_VIEW', 'sales')`)).rows as [[string]];
    const [[yaml]] = (await session.run(`SELECT read_yaml_from_semantic_view('sales')`)).rows as [[string]];
    expect(ddl).to.contain("s.store_avg AS AVG(total_qty) OVER (PARTITION BY store ORDER BY date NULLS LAST)");
    expect(ddl).to.contain(
      "s.prev_qty AS LAG(total_qty, 1) OVER (PARTITION BY EXCLUDING date ORDER BY date NULLS LAST)",
    );
    await session.run(ddl);
    expect(await q(["store", "date", "region"], all)).to.deep.equal(before);
    await session.run(`CREATE OR REPLACE SEMANTIC VIEW sales FROM YAML $$${yaml}$$`);
    expect(await q(["store", "date", "region"], all)).to.deep.equal(before);
    expect((await session.run(`SELECT get_ddl('SEMANTIC_VIEW', 'sales')`)).rows).to.deep.equal([[ddl]]);
  });

  it("the YAML window_spec of the reference page", async () => {
    await using s = await DocsRunner.open();
    await s.run(
      `${SALES}
       CREATE SEMANTIC VIEW y FROM YAML $$
       tables:
         - {alias: s, table: sales, pk_columns: [id]}
       dimensions:
         - {name: store, expr: s.store, source_table: s}
         - {name: date, expr: s.sale_date, source_table: s}
       metrics:
         - {name: total_qty, expr: SUM(s.quantity), source_table: s}
         - name: rolling_avg
           expr: AVG(total_qty)
           source_table: s
           window_spec:
             window_function: AVG
             inner_metric: total_qty
             excluding_dims:
               - date
             order_by:
               - expr: date
                 order: Asc
                 nulls: Last
             frame_clause: "RANGE BETWEEN INTERVAL '6 days' PRECEDING AND CURRENT ROW"
       $$`,
    );
    const r = await s.run(
      `SELECT store, rolling_avg FROM semantic_view('y', dimensions := ['store', 'date'], metrics := ['rolling_avg']) ORDER BY ALL`,
    );
    expect(r.rows).to.deep.equal([
      ["S1", 14],
      ["S1", 15],
      ["S1", 17.5],
      ["S2", 3],
      ["S2", 6],
    ]);
  });

  describe("definition errors (troubleshooting section)", () => {
    const create = (metric: string): string =>
      `CREATE OR REPLACE SEMANTIC VIEW bad AS TABLES (s AS sales PRIMARY KEY (id))
       DIMENSIONS (s.store AS s.store, s.date AS s.sale_date)
       METRICS (s.total_qty AS SUM(s.quantity), ${metric})`;
    const cases: [string, string][] = [
      [
        "s.w AS AVG(total_qtx) OVER (ORDER BY date)",
        "Window metric 'w': inner metric 'total_qtx' not found in semantic view metrics. Did you mean 'total_qty'?",
      ],
      [
        "s.w AS AVG(total_qty) OVER (PARTITION BY EXCLUDING dat)",
        "Window metric 'w': EXCLUDING dimension 'dat' not found in semantic view dimensions. Did you mean 'date'?",
      ],
      [
        "s.w AS AVG(total_qty) OVER (PARTITION BY stor)",
        "Window metric 'w': PARTITION BY dimension 'stor' not found in semantic view dimensions. Did you mean 'store'?",
      ],
      [
        "s.w AS AVG(total_qty) OVER (ORDER BY dte)",
        "Window metric 'w': ORDER BY dimension 'dte' not found in semantic view dimensions. Did you mean 'date'?",
      ],
      [
        "w AS AVG(total_qty) OVER (ORDER BY date)",
        "OVER clause not allowed on derived metric 'w'. Only qualified metrics (alias.name) can use OVER.",
      ],
      [
        "s.w AS AVG(total_qty) OVER (ORDER BY date) * 2",
        "a window metric is exactly FUNC(inner_metric[, args]) OVER (...)",
      ],
      [
        "ratio AS total_qty / w, s.w AS AVG(total_qty) OVER (ORDER BY date)",
        "metric 'ratio' references window metric 'w'",
      ],
    ];
    for (const [metric, message] of cases) {
      it(message, async () => {
        expect((await session.error(create(metric))).message).to.contain(message);
      });
    }

    it("a window metric as the inner metric of another is refused when queried", async () => {
      await session.run(create("s.w AS AVG(total_qty) OVER (ORDER BY date), s.ww AS SUM(w) OVER (ORDER BY date)"));
      const error = await session.error(
        `SELECT * FROM semantic_view('bad', dimensions := ['date'], metrics := ['ww'])`,
      );
      expect(error.message).to.contain("inner metric 'w' is itself a window metric");
    });
  });
});
