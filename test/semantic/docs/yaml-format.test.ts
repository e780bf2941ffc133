/**
 * docs/reference/yaml-format.rst: every documented key of tables, joins, facts, dimensions,
 * metrics and materializations, the minimal definition, and the 1 MiB cap. (The non_additive_by
 * and window_spec metric keys belong to the semi-additive / window metric feature and are tested
 * with it.)
 */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";

const COMPLETE = `
tables:
  - alias: o
    table: orders
    pk_columns:
      - id
    comment: Order transactions
    synonyms:
      - order_facts
  - alias: c
    table: customers
    pk_columns:
      - id

joins:
  - table: c
    from_alias: o
    fk_columns:
      - customer_id
    name: order_customer
    cardinality: ManyToOne

facts:
  - name: net_price
    expr: o.extended_price * (1 - o.discount)
    source_table: o
    comment: Price after discount
    synonyms:
      - discounted_price

dimensions:
  - name: region
    expr: o.region
    source_table: o
    comment: Sales territory
  - name: customer_name
    expr: c.name
    source_table: c
  # Not in the page's example, which names report_date in non_additive_by without declaring it.
  - name: report_date
    expr: CAST(o.ordered_at AS DATE)
    source_table: o

metrics:
  - name: revenue
    expr: SUM(o.amount)
    source_table: o
    comment: Total revenue
    synonyms:
      - total_revenue
  - name: order_count
    expr: COUNT(*)
    source_table: o
  - name: avg_order
    expr: revenue / order_count
  - name: balance
    expr: SUM(o.amount)
    source_table: o
    non_additive_by:
      - dimension: report_date
        order: Desc
        nulls: First

materializations:
  - name: region_agg
    table: daily_revenue_by_region
    dimensions:
      - region
    metrics:
      - revenue
      - order_count

comment: Revenue analytics view
`;

describe("docs/reference/yaml-format", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE customers (id INTEGER, name VARCHAR, email VARCHAR)");
    await runner.run(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, region VARCHAR, amount INTEGER, extended_price DOUBLE, discount DOUBLE, ordered_at TIMESTAMP)",
    );
    await runner.run("INSERT INTO customers VALUES (1, 'Ann', 'a@x'), (2, 'Bo', 'b@x')");
    await runner.run(
      "INSERT INTO orders VALUES (1, 1, 'east', 10, 100, 0.1, TIMESTAMP '2024-01-05 10:00'), (2, 1, 'east', 20, 50, 0, TIMESTAMP '2024-02-01 09:00'), (3, 2, 'west', 5, 10, 0.5, TIMESTAMP '2024-02-03 12:00')",
    );
  });
  after(() => runner.close());

  it("the complete example creates a working view with every key kept", async () => {
    await runStatement(runner, `CREATE SEMANTIC VIEW complete FROM YAML $$${COMPLETE}$$`);
    const rows = (
      await runStatement(
        runner,
        "SELECT * FROM semantic_view('complete', dimensions := ['customer_name'], metrics := ['revenue', 'avg_order']) ORDER BY ALL",
      )
    ).rows;
    expect(rows).to.deep.equal([
      ["Ann", 30n, 15],
      ["Bo", 5n, 5],
    ]);
    const described = (
      await runStatement(
        runner,
        "SELECT object_kind, object_name, property, property_value FROM describe_semantic_view('complete')",
      )
    ).rows;
    const has = (kind: string, name: string, property: string, value: string): void => {
      expect(described, `${kind} ${name} ${property}`).to.deep.include([kind, name, property, value]);
    };
    has("TABLE", "orders", "COMMENT", "Order transactions");
    has("TABLE", "orders", "SYNONYMS", '["order_facts"]');
    has("RELATIONSHIP", "order_customer", "FOREIGN_KEY", '["customer_id"]');
    has("FACT", "net_price", "SYNONYMS", '["discounted_price"]');
    has("DIMENSION", "region", "COMMENT", "Sales territory");
    has("METRIC", "revenue", "SYNONYMS", '["total_revenue"]');
    has("DERIVED_METRIC", "avg_order", "EXPRESSION", "revenue / order_count");
    has("MATERIALIZATION", "region_agg", "METRICS", '["revenue","order_count"]');
    const nonAdditive = described.find((r) => r[1] === "balance" && r[2] === "NON_ADDITIVE_BY");
    expect(String(nonAdditive?.[3])).to.match(/^report_date DESC/);
    const exported = String(
      (await runStatement(runner, "SELECT read_yaml_from_semantic_view('complete')")).rows[0]![0],
    );
    expect(exported).to.include("non_additive_by:").and.include("materializations:\n  - name: region_agg");
    const views = (await runStatement(runner, "SELECT comment FROM list_semantic_views() WHERE name = 'complete'"))
      .rows;
    expect(views).to.deep.equal([["Revenue analytics view"]]);
  });

  it("the minimal definition needs only tables and a dimension or metric", async () => {
    await runStatement(
      runner,
      "CREATE SEMANTIC VIEW minimal FROM YAML $$\ntables:\n  - alias: o\n    table: orders\n    pk_columns:\n      - id\ndimensions:\n  - name: region\n    expr: o.region\n    source_table: o\nmetrics:\n  - name: revenue\n    expr: SUM(o.amount)\n    source_table: o\n$$",
    );
    expect(
      (await runStatement(runner, "SELECT * FROM semantic_view('minimal', metrics := ['revenue'])")).rows,
    ).to.deep.equal([[35n]]);
    // Both member keys must be present; `[]` stands for none, but not for both.
    expect(
      await errorOf(
        runner,
        "CREATE SEMANTIC VIEW sales FROM YAML $$\ntables:\n  - alias: o\n    table: orders\ndimensions: []\n$$",
      ),
    ).to.equal("invalid YAML definition for semantic view 'sales': missing field `metrics`");
    expect(
      await errorOf(
        runner,
        "CREATE SEMANTIC VIEW none FROM YAML $$\ntables:\n  - alias: o\n    table: orders\ndimensions: []\nmetrics: []\n$$",
      ),
    ).to.include("at least one dimension or metric");
  });

  it("unique_constraints, ref_columns, access, output_type and an empty-dimension materialization", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW keyed FROM YAML $$
tables:
  - alias: o
    table: orders
    pk_columns: [id]
  - alias: c
    table: customers
    pk_columns: [id]
    unique_constraints:
      - - email
joins:
  - table: c
    from_alias: o
    fk_columns: [customer_id]
    ref_columns: [id]
    name: to_customer
    cardinality: ManyToOne
facts:
  - name: raw_amount
    expr: o.amount
    source_table: o
    access: Private
    output_type: BIGINT
dimensions:
  - name: order_month
    expr: date_trunc('month', o.ordered_at)
    source_table: o
    output_type: DATE
metrics:
  - name: raw_total
    expr: SUM(o.raw_amount)
    source_table: o
    access: Private
  - name: doubled
    expr: raw_total * 2
    output_type: DOUBLE
materializations:
  - name: global_agg
    table: global_totals
    metrics:
      - doubled
$$`,
    );
    const r = await runStatement(
      runner,
      "SELECT * FROM semantic_view('keyed', dimensions := ['order_month'], metrics := ['doubled']) ORDER BY ALL",
    );
    expect(r.types).to.deep.equal(["DATE", "DOUBLE"]);
    expect(r.rows.map((row) => row[1])).to.deep.equal([20, 50]);
    expect(await errorOf(runner, "SELECT * FROM semantic_view('keyed', metrics := ['raw_total'])")).to.include(
      "metric 'raw_total' is private",
    );
    const dims = (await runStatement(runner, "SELECT name, data_type FROM show_semantic_dimensions('keyed')")).rows;
    expect(dims).to.deep.equal([["order_month", "DATE"]]);
    const unique = (await runStatement(runner, "SELECT read_yaml_from_semantic_view('keyed')")).rows[0]![0];
    expect(unique)
      .to.include("unique_constraints:\n      - - email")
      .and.include("output_type: DATE")
      .and.include("access: Private");
  });

  it("source_table is optional for facts and dimensions: the table the expression names, else the base table", async () => {
    await runStatement(
      runner,
      `CREATE SEMANTIC VIEW inferred FROM YAML $$
tables:
  - {alias: o, table: orders, pk_columns: [id]}
  - {alias: c, table: customers, pk_columns: [id]}
joins:
  - {table: c, from_alias: o, fk_columns: [customer_id], name: oc}
dimensions:
  - {name: customer_name, expr: c.name}
  - {name: constant, expr: "'all'"}
metrics:
  - {name: revenue, expr: SUM(o.amount), source_table: o}
$$`,
    );
    const dims = (await runStatement(runner, "SELECT name, table_name FROM show_semantic_dimensions('inferred')")).rows;
    expect(dims).to.deep.equal([
      ["constant", "orders"],
      ["customer_name", "customers"],
    ]);
    const rows = (
      await runStatement(
        runner,
        "SELECT * FROM semantic_view('inferred', dimensions := ['customer_name'], metrics := ['revenue']) ORDER BY ALL",
      )
    ).rows;
    expect(rows).to.deep.equal([
      ["Ann", 30n],
      ["Bo", 5n],
    ]);
  });

  it("rejects an unknown cardinality, an output_type that is not a type, a body over 1 MiB", async () => {
    const base =
      "tables:\n  - alias: o\n    table: orders\nmetrics: []\ndimensions:\n  - name: region\n    expr: o.region\n    source_table: o\n";
    expect(
      await errorOf(
        runner,
        `CREATE SEMANTIC VIEW x FROM YAML $$${base}joins:\n  - table: o\n    from_alias: o\n    cardinality: ManyToMany\n$$`,
      ),
    ).to.include("cardinality must be ManyToOne or OneToOne");
    const injected = base.replace("source_table: o\n", 'source_table: o\n    output_type: "DATE) AS d, (SELECT 1"\n');
    expect(await errorOf(runner, `CREATE SEMANTIC VIEW x FROM YAML $$${injected}$$`)).to.include("is not a type name");
    const big = `${base}comment: "${"x".repeat(1024 * 1024)}"\n`;
    expect(await errorOf(runner, `CREATE SEMANTIC VIEW x FROM YAML $$${big}$$`)).to.match(
      /^YAML definition for semantic view 'x' exceeds size limit \(\d+ bytes > 1048576 bytes\)\.$/,
    );
  });
});
