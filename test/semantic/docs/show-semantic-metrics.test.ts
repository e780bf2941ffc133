/** docs/reference/show-semantic-metrics.rst: base and derived metrics, sorting, filters. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { createMemberViews, MEMBER_COLUMNS, memberNames } from "../support/member-views.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW SEMANTIC METRICS", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await createMemberViews(runner);
  });
  after(() => runner.close());

  const names = (sql: string) => memberNames(runner, sql);

  it("derived metrics have an empty table_name; one view sorted by name", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC METRICS IN profit_analysis");
    expect(r.columns).to.deep.equal(MEMBER_COLUMNS);
    expect(r.rows.map((row) => [row[3], row[4], row[6]])).to.deep.equal([
      ["orders", "cost", "[]"],
      ["", "margin", "[]"],
      ["", "profit", "[]"],
      ["orders", "revenue", "[]"],
    ]);
  });

  it("every view: sorted by view name, then metric name; filters combine in order", async () => {
    expect(await names("SHOW SEMANTIC METRICS")).to.deep.equal([
      "orders_sv.order_count",
      "orders_sv.total_amount",
      "profit_analysis.cost",
      "profit_analysis.margin",
      "profit_analysis.profit",
      "profit_analysis.revenue",
    ]);
    expect(await names("SHOW SEMANTIC METRICS LIKE '%AMOUNT%'")).to.deep.equal(["orders_sv.total_amount"]);
    expect(await names("SHOW SEMANTIC METRICS IN SCHEMA main")).to.have.length(6);
    expect(await names("SHOW SEMANTIC METRICS LIKE '%o%' IN SCHEMA main STARTS WITH 'p' LIMIT 1")).to.deep.equal([
      "profit_analysis.profit",
    ]);
  });

  it("errors: STARTS WITH before IN, a missing view", async () => {
    expect(await errorOf(runner, "SHOW SEMANTIC METRICS STARTS WITH 'a' IN orders_sv")).to.include(
      "IN must come before STARTS WITH",
    );
    expect(await errorOf(runner, "SHOW SEMANTIC METRICS IN nonexistent_view")).to.equal(
      "semantic view 'nonexistent_view' does not exist",
    );
  });
});
