/**
 * YAML bodies are read the way the extension's serde model reads them (`src/model.rs`: no
 * `deny_unknown_fields` anywhere, `tables`/`joins`/`facts` default to empty, `dimensions` and
 * `metrics` required): keys it does not know — `base_table` of old stored definitions, the removed
 * join encodings `on`/`from_cols`, anything else — are ignored, at every level.
 */
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";
import { errorOf } from "./support/statement-rows.js";

describe("conformance: YAML bodies ignore unknown keys (serde)", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount INTEGER, day DATE);
      CREATE TABLE customers (id INTEGER, region VARCHAR);
      INSERT INTO orders VALUES (1, 1, 10, DATE '2024-01-01'), (2, 1, 20, DATE '2024-01-02'), (3, 2, 5, DATE '2024-01-01');
      INSERT INTO customers VALUES (1, 'EU'), (2, 'US');`);
  });
  after(() => db.close());

  it("accepts unknown keys on the document, tables, joins, members, NON ADDITIVE BY, window specs and materializations", async () => {
    await db.run(`CREATE SEMANTIC VIEW legacy FROM YAML $$
base_table: orders
column_type_names: [VARCHAR]
tables:
  - alias: o
    table: orders
    pk_columns: [id]
    colour: blue
  - alias: c
    table: customers
    pk_columns: [id]
joins:
  - name: o_to_c
    from_alias: o
    table: c
    fk_columns: [customer_id]
    on: o.customer_id = c.id
    from_cols: [customer_id]
dimensions:
  - name: region
    expr: c.region
    source_table: c
    tags: [x]
  - name: day
    expr: o.day
    source_table: o
metrics:
  - name: total
    expr: SUM(o.amount)
    source_table: o
    unit: euro
  - name: last_total
    expr: SUM(o.amount)
    source_table: o
    non_additive_by:
      - dimension: day
        weight: 3
  - name: running
    expr: SUM(total) OVER (ORDER BY day)
    source_table: o
    window_spec:
      window_function: SUM
      inner_metric: total
      order_by:
        - expr: day
          hint: x
      owner: me
materializations:
  - name: by_region
    table: orders_by_region
    dimensions: [region]
    metrics: [total]
    refreshed: daily
$$`);
    const { rows } = await db.run(
      "SELECT region, day::VARCHAR, total FROM semantic_view('legacy', dimensions := ['region', 'day'], metrics := ['total']) ORDER BY ALL",
    );
    expect(rows).to.deep.equal([
      ["EU", "2024-01-01", 10n],
      ["EU", "2024-01-02", 20n],
      ["US", "2024-01-01", 5n],
    ]);
    // The materialization kept its names: exactly its set routes to its table.
    await db.run("CREATE TABLE orders_by_region AS SELECT 'EU' AS region, 99 AS total");
    const routed = await db.run(
      "SELECT * FROM semantic_view('legacy', dimensions := ['region'], metrics := ['total'])",
    );
    expect(routed.rows).to.deep.equal([["EU", 99]]);
    // The NON ADDITIVE BY entry kept its dimension: the latest day only.
    const snapshot = await db.run("SELECT * FROM semantic_view('legacy', metrics := ['last_total'])");
    expect(snapshot.rows).to.deep.equal([[20n]]);
  });

  it("reads a `relationships:` key as unknown (the serde name is `joins`), so the second table is an orphan", async () => {
    const message = await errorOf(
      db,
      `CREATE SEMANTIC VIEW renamed_joins FROM YAML $$
tables:
  - {alias: o, table: orders, pk_columns: [id]}
  - {alias: c, table: customers, pk_columns: [id]}
relationships:
  - {name: o_to_c, from_alias: o, table: c, fk_columns: [customer_id]}
dimensions: [{name: region, expr: c.region, source_table: c}]
metrics: [{name: total, expr: SUM(o.amount), source_table: o}]
$$`,
    );
    expect(message).to.include("orphan table 'c'");
  });

  it("still requires `dimensions` and `metrics` (no serde default)", async () => {
    expect(
      await errorOf(
        db,
        "CREATE SEMANTIC VIEW nodims FROM YAML $$\ntables: [{alias: o, table: orders}]\nmetrics: [{name: n, expr: COUNT(*), source_table: o}]\n$$",
      ),
    ).to.equal("invalid YAML definition for semantic view 'nodims': missing field `dimensions`");
  });
});
