import { expect } from "chai";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { defineView, fixedCatalog } from "./support/definitions.js";
import { TestSession } from "./support/session.js";
import { SALES_BY_COUNTRY, salesTableSql } from "../support/sales-fixture.js";

/** The SPEC.md `sales` view over `sales_data` (the one sales fixture's rows), defined directly. */
export const salesView = defineView({
  name: "sales",
  tables: [{ alias: "sales_data" }],
  dimensions: { "sales_data.country": "sales_data.country", "sales_data.region": "sales_data.region" },
  metrics: { "sales_data.revenue": "SUM(sales_data.revenue)", "sales_data.cost": "SUM(sales_data.cost)" },
});

describe("semantic_view() on the SPEC sales view", () => {
  let session: TestSession;
  const catalog = fixedCatalog(salesView);

  before(async () => {
    session = await TestSession.open();
    for (const statement of salesTableSql()) await session.query(statement);
  });
  after(() => session.close());

  async function run(sql: string) {
    const rewritten = await rewriteSemanticViewCalls(session, sql, catalog);
    expect(rewritten).to.be.a("string");
    return session.query(rewritten!);
  }

  it("sums revenue per country, ordered by revenue descending", async () => {
    const result = await run(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) ORDER BY revenue DESC",
    );
    expect(result.columns).to.deep.equal([
      { name: "country", type: "VARCHAR" },
      { name: "revenue", type: "BIGINT" },
    ]);
    expect(result.rows).to.deep.equal(SALES_BY_COUNTRY.map((r) => [r.country, r.revenue]));
  });

  it("filters by an existing country with an outer WHERE", async () => {
    const result = await run(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) WHERE country = 'DE'",
    );
    expect(result.rows).to.deep.equal([["DE", 420n]]);
  });

  it("returns no rows for an unknown country", async () => {
    const result = await run(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) WHERE country = 'XX'",
    );
    expect(result.rows).to.deep.equal([]);
  });

  it("returns null for statements without a call", async () => {
    expect(await rewriteSemanticViewCalls(session, "SELECT 1", catalog)).to.equal(null);
    expect(await rewriteSemanticViewCalls(session, "SELECT 'semantic_view(x)'", catalog)).to.equal(null);
  });

  it("reports an unknown view with a suggestion", async () => {
    try {
      await rewriteSemanticViewCalls(session, "SELECT * FROM semantic_view('sale', metrics := ['revenue'])", catalog);
      expect.fail("expected an error");
    } catch (error) {
      expect(error).to.be.instanceOf(SemanticViewError);
      expect((error as SemanticViewError).kind).to.equal("not_found");
      expect((error as Error).message).to.equal(
        "Semantic view 'sale' not found. Did you mean 'sales'? Available views: [sales]. Run SHOW SEMANTIC VIEWS to see all registered views.",
      );
    }
  });
});
