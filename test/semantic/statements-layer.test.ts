import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { type HandledStatement } from "../../runtime/semantic/semantic-layer.js";
import { TestSession } from "./support/session.js";

const layer = createBuiltinSemanticLayer();

/** Executes a multi-statement script the way a driver would: split, handle, run. */
async function script(session: TestSession, sql: string): Promise<{ columns: string[]; rows: unknown[][] }[]> {
  const out: { columns: string[]; rows: unknown[][] }[] = [];
  const statements = layer.mayHandle(sql) ? layer.splitStatements(sql) : [sql];
  for (const statement of statements) {
    const handled: HandledStatement = await layer.handle(session, statement);
    if (handled.kind === "result") {
      out.push({ columns: handled.columns.map((c) => c.name), rows: handled.rows });
    } else {
      const r = await session.query(handled.kind === "rewritten" ? handled.sql : statement);
      out.push({ columns: r.columns.map((c) => c.name), rows: r.rows });
    }
  }
  return out;
}

describe("built-in semantic layer dispatch", () => {
  it("runs the SPEC sales fixture as one script and answers semantic_view() queries", async () => {
    await using session = await TestSession.open();
    const results = await script(
      session,
      `INSTALL semantic_views; LOAD semantic_views;
       CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR);
       INSERT INTO sales_data VALUES (10, 4, 'DE', 'EU'), (5, 1, 'DE', 'EU'), (7, 3, 'US', 'NA'), (30, 9, 'FR', 'EU');
       CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data)
         DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
         METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost));
       SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) ORDER BY revenue DESC;`,
    );
    expect(results[4]).to.deep.equal({ columns: ["view_name"], rows: [["sales"]] });
    expect(results[5]).to.deep.equal({
      columns: ["country", "revenue"],
      rows: [
        ["FR", 30n],
        ["DE", 15n],
        ["US", 7n],
      ],
    });
  });

  it("rewrites a statement that mixes semantic_view() and introspection calls", async () => {
    await using session = await TestSession.open();
    await script(
      session,
      `CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR);
       INSERT INTO sales_data VALUES (10, 4, 'DE', 'EU'), (7, 3, 'US', 'NA');
       CREATE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country) METRICS (sales_data.revenue AS SUM(revenue))`,
    );
    const handled = await layer.handle(
      session,
      "SELECT v.name, s.revenue FROM list_semantic_views() v, semantic_view('sales', metrics := ['revenue']) s",
    );
    expect(handled.kind).to.equal("rewritten");
    const r = await session.query((handled as { sql: string }).sql);
    expect(r.rows).to.deep.equal([["sales", 17n]]);
  });

  it("passes through statements that only mention the word", async () => {
    await using session = await TestSession.open();
    for (const sql of [
      "SELECT 'semantic_view(' AS s",
      "SELECT 1 -- semantic_view('x')",
      "CREATE TABLE semantic (a INT)",
    ]) {
      expect(await layer.handle(session, sql), sql).to.deep.equal({ kind: "passthrough" });
    }
  });

  it("returns the extension's empty result for INSTALL/LOAD and leaves other extensions alone", async () => {
    await using session = await TestSession.open();
    expect(await layer.handle(session, "INSTALL semantic_views FROM community")).to.deep.equal({
      kind: "result",
      columns: [],
      rows: [],
    });
    expect(await layer.handle(session, "INSTALL httpfs")).to.deep.equal({ kind: "passthrough" });
  });
});
