import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { loadDefinition } from "../../runtime/semantic/catalog.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { TestSession } from "./support/session.js";

const layer = createBuiltinSemanticLayer();

const YAML = `
comment: orders by customer
tables:
  - alias: o
    table: orders
    pk_columns: [id]
  - alias: c
    table: customers
    pk_columns: [id]
    synonyms: [clients]
joins:
  - name: o_to_c
    from_alias: o
    table: c
    fk_columns: [customer_id]
facts:
  - name: net
    source_table: o
    expr: o.gross - o.discount
dimensions:
  - name: segment
    source_table: c
    expr: c.segment
    comment: market segment
  - name: is_big
    source_table: o
    expr: o.gross > 1000
    is_filter: true
metrics:
  - name: net_sum
    source_table: o
    expr: SUM(o.net)
    access: private
  - name: n_orders
    source_table: o
    expr: COUNT(*)
    using_relationships: [o_to_c]
  - name: avg_net
    expr: net_sum / n_orders
`;

describe("CREATE SEMANTIC VIEW ... FROM YAML", () => {
  let session: TestSession;
  beforeEach(async () => {
    session = await TestSession.open();
    await session.query(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, gross DECIMAL(10,2), discount DECIMAL(10,2))",
    );
    await session.query("CREATE TABLE customers (id INTEGER, segment VARCHAR)");
  });
  afterEach(() => session.close());

  it("creates the same definition as the equivalent SQL form", async () => {
    const r = await layer.handle(session, `CREATE SEMANTIC VIEW crm FROM YAML $$${YAML}$$`);
    expect(r).to.deep.equal({ kind: "result", columns: [{ name: "view_name", type: "VARCHAR" }], rows: [["crm"]] });
    const fromYaml = await loadDefinition(session, "crm");
    await layer.handle(
      session,
      `CREATE SEMANTIC VIEW crm_sql COMMENT = 'orders by customer' AS
        TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id) WITH SYNONYMS ('clients'))
        RELATIONSHIPS (o_to_c AS o(customer_id) REFERENCES c)
        FACTS (o.net AS o.gross - o.discount)
        DIMENSIONS (c.segment AS c.segment COMMENT = 'market segment', o.is_big AS o.gross > 1000 LABELS = (FILTER))
        METRICS (PRIVATE o.net_sum AS SUM(o.net), o.n_orders USING (o_to_c) AS COUNT(*), avg_net AS net_sum / n_orders)`,
    );
    const fromSql = await loadDefinition(session, "crm_sql");
    const strip = (d: typeof fromSql) => ({ ...d, name: undefined, createdOn: undefined });
    expect(strip(fromYaml)).to.deep.equal(strip(fromSql));
  });

  it("accepts a tagged dollar quote and OR REPLACE", async () => {
    await layer.handle(session, `CREATE OR REPLACE SEMANTIC VIEW crm FROM YAML $yaml$${YAML}$yaml$;`);
    expect((await loadDefinition(session, "crm"))?.metrics.length).to.equal(3);
  });

  const errors: [string, string, string][] = [
    ["not a mapping", "- a\n- b", "invalid YAML definition for semantic view 'v': the document must be a mapping"],
    [
      "no tables key (serde defaults it to none)",
      "dimensions: [{name: d, source_table: o, expr: id}]\nmetrics: []",
      "invalid YAML definition for semantic view 'v': 'tables' must list at least one table",
    ],
    [
      "no metrics key",
      "tables: [{table: orders}]\ndimensions: [{name: d, source_table: orders, expr: id}]",
      "missing field `metrics`",
    ],
    [
      "no tables",
      "tables: []\ndimensions: [{name: d, source_table: o, expr: id}]\nmetrics: []",
      "'tables' must list at least one table",
    ],
    ["no members", "tables: [{table: orders}]\ndimensions: []\nmetrics: []", "needs at least one dimension or metric"],
    [
      "missing expr",
      "tables: [{table: orders}]\ndimensions: [{name: d, source_table: orders}]\nmetrics: []",
      "dimensions[0]: 'expr' is required",
    ],
    [
      "dimension over two tables without source_table",
      "tables: [{alias: o, table: orders}, {alias: c, table: customers}]\ndimensions: [{name: d, expr: o.id + c.id}]\nmetrics: []",
      "'source_table' is required when the expression uses several tables (o, c)",
    ],
    ["bad yaml", "tables: [", "invalid YAML definition for semantic view 'v':"],
  ];
  for (const [what, yaml, message] of errors) {
    it(`rejects ${what}`, async () => {
      try {
        await layer.handle(session, `CREATE SEMANTIC VIEW v FROM YAML $$${yaml}$$`);
        expect.fail("expected an error");
      } catch (e) {
        expect(e).to.be.instanceOf(SemanticViewError);
        expect((e as Error).message).to.include(message);
      }
    });
  }

  it("applies the same validation rules as the SQL form (without a caret)", async () => {
    try {
      await layer.handle(
        session,
        "CREATE SEMANTIC VIEW v FROM YAML $$\ntables: [{alias: o, table: orders}]\nfacts: [{name: f, source_table: o, expr: SUM(gross)}]\ndimensions: [{name: d, source_table: o, expr: id}]\nmetrics: []\n$$",
      );
      expect.fail("expected an error");
    } catch (e) {
      expect((e as SemanticViewError).kind).to.equal("invalid");
      expect((e as Error).message).to.equal(
        "Fact 'f' contains aggregate function 'sum'. Facts must be row-level expressions. Move aggregation to METRICS.",
      );
    }
  });

  it("FROM YAML FILE names a missing file in its error", async () => {
    try {
      await layer.handle(session, "CREATE SEMANTIC VIEW v FROM YAML FILE '/nonexistent-dir/x.yaml'");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).message).to.include("FROM YAML FILE '/nonexistent-dir/x.yaml': cannot read the file");
    }
  });
});

describe("read_yaml_from_semantic_view", () => {
  it("round-trips through CREATE ... FROM YAML", async () => {
    await using session = await TestSession.open();
    await session.query(
      "CREATE TABLE orders (id INTEGER, customer_id INTEGER, gross DECIMAL(10,2), discount DECIMAL(10,2))",
    );
    await session.query("CREATE TABLE customers (id INTEGER, segment VARCHAR)");
    await layer.handle(session, `CREATE SEMANTIC VIEW crm FROM YAML $$${YAML}$$`);
    const handled = await layer.handle(session, "SELECT read_yaml_from_semantic_view('crm') AS y");
    if (handled.kind !== "rewritten") throw new Error("expected a rewrite");
    const yaml = String((await session.query(handled.sql)).rows[0]![0]);
    expect(yaml).to.include("joins:\n  - name: o_to_c\n    from_alias: o\n    table: c\n");
    expect(yaml).not.to.include("created_on");
    await layer.handle(session, `CREATE SEMANTIC VIEW crm2 FROM YAML $$${yaml}$$`);
    const strip = (d: Awaited<ReturnType<typeof loadDefinition>>) => ({ ...d, name: undefined, createdOn: undefined });
    expect(strip(await loadDefinition(session, "crm2"))).to.deep.equal(strip(await loadDefinition(session, "crm")));
  });
});
