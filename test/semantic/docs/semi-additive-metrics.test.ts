/**
 * docs/how-to/semi-additive-metrics.rst (extension v0.12) on real DuckDB: the page's examples with
 * its shown rows, plus hand-computed cases for ties, NULL placement, several NON ADDITIVE BY lists,
 * co-queried metrics, other grains, role-playing, where_clause, errors and the DDL round trips.
 */
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

const ACCOUNTS = `
  CREATE TABLE accounts (id INTEGER, report_date DATE, customer_id VARCHAR, balance INTEGER);
  INSERT INTO accounts VALUES
    (1, '2026-04-10', 'ACME', 500), (2, '2026-04-10', 'Globex', 300),
    (3, '2026-04-11', 'ACME', 550), (4, '2026-04-11', 'Globex', 280);`;

const VIEW = `
  CREATE OR REPLACE SEMANTIC VIEW account_metrics AS
  TABLES (a AS accounts PRIMARY KEY (id))
  DIMENSIONS (a.customer_id AS a.customer_id, a.report_date AS a.report_date)
  METRICS (
    a.total_balance NON ADDITIVE BY (report_date) AS SUM(a.balance),
    a.opening_balance NON ADDITIVE BY (report_date DESC) AS SUM(a.balance),
    a.row_count AS COUNT(a.id),
    a.all_rows AS COUNT(*),
    a.scaled_balance NON ADDITIVE BY (report_date) AS SUM(a.balance) * 2,
    double_balance AS total_balance * 2,
    a.running_balance AS SUM(total_balance) OVER (PARTITION BY EXCLUDING customer_id ORDER BY customer_id)
  );`;

describe("docs: how-to/semi-additive-metrics", () => {
  let session: DocsRunner;
  before(async () => {
    session = await DocsRunner.open();
    await session.run(ACCOUNTS + VIEW);
  });
  after(() => session.close());

  const rows = async (sql: string): Promise<unknown[][]> => (await session.run(sql)).rows;

  it("non-additive dimension not queried: the latest snapshot per customer (the page's table)", async () => {
    const r = await session.run(
      `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['total_balance']) ORDER BY customer_id`,
    );
    expect(r.columns.map((c) => c.name)).to.deep.equal(["customer_id", "total_balance"]);
    expect(r.rows).to.deep.equal([
      ["ACME", 550n],
      ["Globex", 280n],
    ]);
  });

  it("non-additive dimension queried: a plain additive metric (the page's table)", async () => {
    const r = await rows(
      `SELECT customer_id, strftime(report_date, '%Y-%m-%d'), total_balance FROM semantic_view('account_metrics',
         dimensions := ['customer_id', 'report_date'], metrics := ['total_balance']) ORDER BY customer_id, report_date`,
    );
    expect(r).to.deep.equal([
      ["ACME", "2026-04-10", 500n],
      ["ACME", "2026-04-11", 550n],
      ["Globex", "2026-04-10", 300n],
      ["Globex", "2026-04-11", 280n],
    ]);
  });

  it("no dimensions: one snapshot across all customers (ACME + Globex on April 11 = 830)", async () => {
    expect(await rows(`SELECT * FROM semantic_view('account_metrics', metrics := ['total_balance'])`)).to.deep.equal([
      [830n],
    ]);
  });

  it("DESC selects the earliest snapshot", async () => {
    expect(
      await rows(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['opening_balance']) ORDER BY ALL`,
      ),
    ).to.deep.equal([
      ["ACME", 500n],
      ["Globex", 300n],
    ]);
  });

  it("regular metrics in the same query aggregate every row", async () => {
    expect(
      await rows(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'],
           metrics := ['total_balance', 'row_count', 'opening_balance']) ORDER BY ALL`,
      ),
    ).to.deep.equal([
      ["ACME", 550n, 2n, 500n],
      ["Globex", 280n, 2n, 300n],
    ]);
  });

  it("a derived or window metric over an active snapshot is refused, as in the extension; additive it answers", async () => {
    for (const metric of ["double_balance", "running_balance"]) {
      const error = await session.error(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['${metric}'])`,
      );
      expect(error.message, metric).to.contain(
        `metric '${metric}' depends on semi-additive metric 'total_balance' (NON ADDITIVE BY report_date)`,
      );
    }
    // With the NON ADDITIVE BY dimension queried the metric is additive, and composing it is fine.
    expect(
      await rows(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id', 'report_date'], metrics := ['double_balance']) ORDER BY ALL`,
      ),
    ).to.deep.equal([
      ["ACME", new Date("2026-04-10"), 1000n],
      ["ACME", new Date("2026-04-11"), 1100n],
      ["Globex", new Date("2026-04-10"), 600n],
      ["Globex", new Date("2026-04-11"), 560n],
    ]);
  });

  it("where_clause filters rows before the snapshot is ranked", async () => {
    expect(
      await rows(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['total_balance'],
           where_clause := 'report_date < DATE ''2026-04-11''') ORDER BY ALL`,
      ),
    ).to.deep.equal([
      ["ACME", 500n],
      ["Globex", 300n],
    ]);
  });

  it("a co-queried COUNT(*) on the same table is refused with the way out", async () => {
    const error = await session.error(
      `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['total_balance', 'all_rows'])`,
    );
    expect(error.message)
      .to.contain("cannot be co-queried with semi-additive metric 'total_balance'")
      .and.contain("all_rows");
    // Without the snapshot (report_date queried) the same pair is an ordinary query.
    expect(
      await rows(
        `SELECT count(*) FROM semantic_view('account_metrics', dimensions := ['customer_id', 'report_date'], metrics := ['total_balance', 'all_rows'])`,
      ),
    ).to.deep.equal([[4n]]);
  });

  it("a semi-additive metric that is not one aggregate call is refused only while its snapshot is active", async () => {
    const error = await session.error(
      `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['scaled_balance'])`,
    );
    expect(error.message)
      .to.contain("semi-additive metric 'scaled_balance'")
      .and.contain("cannot be expanded")
      .and.contain("requires the metric to be a single aggregate call SUM/COUNT/AVG/MIN/MAX(<expression>)");
    expect(
      await rows(
        `SELECT * FROM semantic_view('account_metrics', dimensions := ['report_date'], metrics := ['scaled_balance']) ORDER BY ALL`,
      ),
    ).to.have.deep.members([
      [new Date("2026-04-10T00:00:00Z"), 1600n],
      [new Date("2026-04-11T00:00:00Z"), 1660n],
    ]);
  });

  describe("ties, NULLs and several NON ADDITIVE BY lists", () => {
    let s: DocsRunner;
    before(async () => {
      s = await DocsRunner.open();
      await s.run(
        `CREATE TABLE snaps (id INTEGER, customer_id VARCHAR, report_date DATE, period INTEGER, balance INTEGER);
         INSERT INTO snaps VALUES
           (1, 'A', '2026-01-01', 1, 10), (2, 'A', '2026-01-02', 1, 20), (3, 'A', '2026-01-02', 2, 30),
           (4, 'A', '2026-01-02', 2, 5), (5, 'B', '2026-01-01', 1, 7), (6, 'B', NULL, 3, 100);
         CREATE SEMANTIC VIEW snaps_v AS TABLES (s AS snaps PRIMARY KEY (id))
         DIMENSIONS (s.customer_id AS s.customer_id, s.report_date AS s.report_date, s.period AS s.period)
         METRICS (
           s.latest NON ADDITIVE BY (report_date) AS SUM(s.balance),
           s.earliest NON ADDITIVE BY (report_date DESC) AS SUM(s.balance),
           s.earliest_real NON ADDITIVE BY (report_date DESC NULLS LAST) AS SUM(s.balance),
           s.latest_or_null NON ADDITIVE BY (report_date NULLS FIRST) AS SUM(s.balance),
           s.latest_period NON ADDITIVE BY (report_date, period) AS MAX(s.balance),
           s.total AS SUM(s.balance)
         )`,
      );
    });
    after(() => s.close());
    const q = async (metrics: string[], dims = ["customer_id"]): Promise<unknown[][]> =>
      (
        await s.run(
          `SELECT * FROM semantic_view('snaps_v', dimensions := [${dims.map((d) => `'${d}'`).join(", ")}],
             metrics := [${metrics.map((m) => `'${m}'`).join(", ")}]) ORDER BY ALL`,
        )
      ).rows;

    it("every row tied at the snapshot value counts (RANK, not one arbitrary row)", async () => {
      // A's latest date 2026-01-02 has three rows: 20 + 30 + 5.
      expect(await q(["latest"])).to.deep.equal([
        ["A", 55n],
        ["B", 7n],
      ]);
    });

    it("NULLS placement: ASC defaults to NULLS LAST, DESC to NULLS FIRST; explicit placement wins", async () => {
      expect(await q(["earliest", "earliest_real", "latest_or_null", "total"])).to.deep.equal([
        ["A", 10n, 10n, 55n, 65n],
        ["B", 100n, 7n, 100n, 107n],
      ]);
    });

    it("several NON ADDITIVE BY dimensions order lexicographically; different lists rank separately", async () => {
      // latest_period: A's last (date, period) is (2026-01-02, 2) → rows 30 and 5 → MAX 30.
      expect(await q(["latest_period", "latest"])).to.deep.equal([
        ["A", 30, 55n],
        ["B", 7, 7n],
      ]);
      // period queried, report_date not: still active. Queried NON ADDITIVE BY dimensions leave the
      // partition (as the extension does), so only the overall last (date, period) rows count.
      expect(await q(["latest_period"], ["period"])).to.deep.equal([
        [1, null],
        [2, 30],
        [3, null],
      ]);
    });
  });

  describe("other grains and role-playing", () => {
    let s: DocsRunner;
    before(async () => {
      s = await DocsRunner.open();
      await s.run(
        `CREATE TABLE customers (id INTEGER, region VARCHAR, home_branch INTEGER, open_branch INTEGER);
         CREATE TABLE branches (id INTEGER, city VARCHAR);
         CREATE TABLE balances (id INTEGER, customer_id INTEGER, report_date DATE, balance INTEGER);
         INSERT INTO branches VALUES (1, 'Oslo'), (2, 'Bergen');
         INSERT INTO customers VALUES (1, 'North', 1, 2), (2, 'North', 2, 2), (3, 'South', 1, 1);
         INSERT INTO balances VALUES
           (1, 1, '2026-03-01', 100), (2, 1, '2026-03-02', 120), (3, 2, '2026-03-01', 40),
           (4, 2, '2026-03-02', 60), (5, 3, '2026-03-01', 500);
         CREATE SEMANTIC VIEW bank AS
         TABLES (b AS balances PRIMARY KEY (id), c AS customers PRIMARY KEY (id), br AS branches PRIMARY KEY (id))
         RELATIONSHIPS (bal_customer AS b(customer_id) REFERENCES c, home AS c(home_branch) REFERENCES br,
                        opened AS c(open_branch) REFERENCES br)
         DIMENSIONS (c.region AS c.region, b.report_date AS b.report_date, br.city AS br.city)
         METRICS (
           b.balance NON ADDITIVE BY (report_date) AS SUM(b.balance),
           b.balance_by_home USING (home) NON ADDITIVE BY (report_date) AS SUM(b.balance),
           b.balance_by_opening USING (opened) NON ADDITIVE BY (report_date) AS SUM(b.balance),
           c.customers AS COUNT(*),
           per_customer AS balance / customers
         )`,
      );
    });
    after(() => s.close());

    it("a snapshot next to a COUNT(*) on a parent table, each at its own grain", async () => {
      // Latest date per region: North 2026-03-02 (120 + 60), South 2026-03-01 (500).
      expect(
        (
          await s.run(
            `SELECT * FROM semantic_view('bank', dimensions := ['region'], metrics := ['balance', 'customers']) ORDER BY ALL`,
          )
        ).rows,
      ).to.deep.equal([
        ["North", 180n, 2n],
        ["South", 500n, 1n],
      ]);
      // A derived metric over the snapshot is refused (the extension does not compose snapshots).
      const error = await s.error(
        `SELECT * FROM semantic_view('bank', dimensions := ['region'], metrics := ['per_customer'])`,
      );
      expect(error.message).to.contain("metric 'per_customer' depends on semi-additive metric 'balance'");
    });

    it("role-played dimensions follow each metric's USING", async () => {
      // Home: Oslo = customers 1 and 3 (latest date overall for Oslo is 03-02 → only customer 1's 120), Bergen = customer 2 (60).
      expect(
        (
          await s.run(
            `SELECT * FROM semantic_view('bank', dimensions := ['city'], metrics := ['balance_by_home']) ORDER BY ALL`,
          )
        ).rows,
      ).to.deep.equal([
        ["Bergen", 60n],
        ["Oslo", 120n],
      ]);
      // Opened: Bergen = customers 1 and 2 (03-02: 120 + 60), Oslo = customer 3 (500).
      expect(
        (
          await s.run(
            `SELECT * FROM semantic_view('bank', dimensions := ['city'], metrics := ['balance_by_opening']) ORDER BY ALL`,
          )
        ).rows,
      ).to.deep.equal([
        ["Bergen", 180n],
        ["Oslo", 500n],
      ]);
    });

    it("a role-played dimension with an active snapshot and a second grain is refused (metric-grain page)", async () => {
      const error = await s.error(
        `SELECT * FROM semantic_view('bank', dimensions := ['city'], metrics := ['balance_by_home', 'customers'])`,
      );
      expect(error.message)
        .to.contain("fan trap detected")
        .and.contain("dimension 'city' is on role-playing table 'br'");
      // The same snapshot alone (one grain) answers, see above; so does the pair with a plain dimension.
      expect(
        (
          await s.run(
            `SELECT count(*) FROM semantic_view('bank', dimensions := ['region'], metrics := ['balance_by_home', 'customers'])`,
          )
        ).rows,
      ).to.deep.equal([[2n]]);
    });
  });

  describe("definition errors", () => {
    const create = (metric: string): string =>
      `CREATE OR REPLACE SEMANTIC VIEW bad AS TABLES (a AS accounts PRIMARY KEY (id))
       DIMENSIONS (a.customer_id AS a.customer_id, a.report_date AS a.report_date)
       METRICS (a.total AS SUM(a.balance), ${metric})`;

    it("NON ADDITIVE BY dimension not found, with a suggestion", async () => {
      const error = await session.error(create("a.b NON ADDITIVE BY (report_dat) AS SUM(a.balance)"));
      expect(error.message).to.contain(
        "NON ADDITIVE BY dimension 'report_dat' on metric 'b' does not match any declared dimension. Did you mean 'report_date'?",
      );
    });

    it("NON ADDITIVE BY after AS is refused, also inside parentheses", async () => {
      for (const metric of [
        "a.b AS SUM(a.balance) NON ADDITIVE BY (report_date)",
        "a.b AS (SUM(a.balance) NON ADDITIVE BY (report_date))",
      ]) {
        const error = await session.error(create(metric));
        expect(error.message).to.contain("'NON ADDITIVE BY (...)' must come BEFORE 'AS' in a metric entry");
      }
    });

    it("NON ADDITIVE BY with OVER, and on a derived metric", async () => {
      const both = await session.error(
        create("a.b NON ADDITIVE BY (report_date) AS SUM(total) OVER (PARTITION BY customer_id)"),
      );
      expect(both.message).to.contain(
        "Cannot combine OVER clause with NON ADDITIVE BY on metric 'a.b'. Use one or the other.",
      );
      const derived = await session.error(create("b NON ADDITIVE BY (report_date) AS total * 2"));
      expect(derived.message).to.contain("derived metric 'b' cannot have NON ADDITIVE BY");
    });
  });

  describe("round trips", () => {
    it("DESCRIBE shows NON_ADDITIVE_BY; get_ddl and read_yaml_from_semantic_view recreate the same view", async () => {
      const describe = await rows(
        `SELECT object_name, property_value FROM describe_semantic_view('account_metrics') WHERE property = 'NON_ADDITIVE_BY' ORDER BY ALL`,
      );
      // The page's example omits the defaults; the extension's renderer (shared with GET_DDL) always
      // writes NULLS, and NULLS follows the direction unless written.
      expect(describe).to.deep.equal([
        ["opening_balance", "report_date DESC NULLS FIRST"],
        ["scaled_balance", "report_date NULLS LAST"],
        ["total_balance", "report_date NULLS LAST"],
      ]);
      const query = `SELECT * FROM semantic_view('account_metrics', dimensions := ['customer_id'], metrics := ['total_balance', 'opening_balance']) ORDER BY ALL`;
      const before = await rows(query);
      const [[ddl]] = (await rows(`SELECT get_ddl('SEMANTIC_VIEW', 'account_metrics')`)) as [[string]];
      const [[yaml]] = (await rows(`SELECT read_yaml_from_semantic_view('account_metrics')`)) as [[string]];
      expect(ddl).to.contain("a.total_balance NON ADDITIVE BY (report_date NULLS LAST) AS SUM(a.balance)");
      expect(ddl).to.contain("a.opening_balance NON ADDITIVE BY (report_date DESC NULLS FIRST) AS SUM(a.balance)");
      await session.run(ddl);
      expect(await rows(query)).to.deep.equal(before);
      expect(await rows(`SELECT get_ddl('SEMANTIC_VIEW', 'account_metrics')`)).to.deep.equal([[ddl]]);
      await session.run(`CREATE OR REPLACE SEMANTIC VIEW account_metrics FROM YAML $$${yaml}$$`);
      expect(await rows(query)).to.deep.equal(before);
      expect(await rows(`SELECT get_ddl('SEMANTIC_VIEW', 'account_metrics')`)).to.deep.equal([[ddl]]);
    });

    it("YAML non_additive_by entries as the reference shows (order: Desc, nulls: First)", async () => {
      await using s = await DocsRunner.open();
      await s.run(
        `${ACCOUNTS}
         CREATE SEMANTIC VIEW y FROM YAML $$
         tables:
           - {alias: a, table: accounts, pk_columns: [id]}
         dimensions:
           - {name: customer_id, expr: a.customer_id, source_table: a}
           - {name: report_date, expr: a.report_date, source_table: a}
         metrics:
           - name: total_balance
             expr: SUM(a.balance)
             source_table: a
             non_additive_by:
               - dimension: report_date
                 order: Desc
                 nulls: First
         $$`,
      );
      expect(
        (
          await s.run(
            `SELECT * FROM semantic_view('y', dimensions := ['customer_id'], metrics := ['total_balance']) ORDER BY ALL`,
          )
        ).rows,
      ).to.deep.equal([
        ["ACME", 500n],
        ["Globex", 300n],
      ]);
    });
  });
});
