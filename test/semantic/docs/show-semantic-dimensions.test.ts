/** docs/reference/show-semantic-dimensions.rst: columns, synonyms as a JSON array, sorting, IN scopes, filters and their enforced order. */
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { createMemberViews, MEMBER_COLUMNS, memberNames } from "../support/member-views.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW SEMANTIC DIMENSIONS", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await createMemberViews(runner);
  });
  after(() => runner.close());

  const names = (sql: string) => memberNames(runner, sql);

  it("one view: 8 VARCHAR columns, physical table names, sorted by name, synonyms as a JSON array", async () => {
    const r = await runStatement(runner, "SHOW SEMANTIC DIMENSIONS IN orders_sv");
    expect(r.columns).to.deep.equal(MEMBER_COLUMNS);
    expect(r.types).to.deep.equal(MEMBER_COLUMNS.map(() => "VARCHAR"));
    expect(r.rows).to.deep.equal([
      ["memory", "main", "orders_sv", "customers", "customer_name", "", "[]", ""],
      ["memory", "main", "orders_sv", "orders", "order_date", "", "[]", "day ordered"],
      ["memory", "main", "orders_sv", "customers", "region", "", '["territory","sales_region"]', ""],
    ]);
    expect((await runStatement(runner, "SELECT * FROM show_semantic_dimensions('orders_sv')")).rows).to.deep.equal(
      r.rows,
    );
  });

  it("IN ACCOUNT, IN DATABASE [name], IN SCHEMA [[db.]name]", async () => {
    const all = await names("SHOW SEMANTIC DIMENSIONS");
    expect(all).to.deep.equal([
      "orders_sv.customer_name",
      "orders_sv.order_date",
      "orders_sv.region",
      "schema.region_code",
    ]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN ACCOUNT")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE memory")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE")).to.deep.equal(all);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN DATABASE elsewhere")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA other")).to.deep.equal(["schema.region_code"]);
    expect(await names('SHOW SEMANTIC DIMENSIONS IN SCHEMA MEMORY."Other"')).to.deep.equal(["schema.region_code"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA elsewhere.other")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN SCHEMA")).to.deep.equal(
      all.filter((n) => !n.startsWith("schema.")),
    );
    // A view named like a scope keyword is quoted.
    expect(await names('SHOW SEMANTIC DIMENSIONS IN other."schema"')).to.deep.equal(["schema.region_code"]);
  });

  it("LIKE (case-insensitive), STARTS WITH (case-sensitive), LIMIT", async () => {
    expect(await names("SHOW SEMANTIC DIMENSIONS LIKE '%NAME%'")).to.deep.equal(["orders_sv.customer_name"]);
    expect(await names("SHOW SEMANTIC DIMENSIONS LIKE '%NAME%' IN orders_sv")).to.deep.equal([
      "orders_sv.customer_name",
    ]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv STARTS WITH 'order'")).to.deep.equal([
      "orders_sv.order_date",
    ]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv STARTS WITH 'Order'")).to.deep.equal([]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv LIMIT 2")).to.deep.equal([
      "orders_sv.customer_name",
      "orders_sv.order_date",
    ]);
    expect(await names("SHOW SEMANTIC DIMENSIONS IN orders_sv LIMIT 0")).to.deep.equal([]);
    expect(await names("show semantic dimensions in orders_sv limit 1")).to.deep.equal(["orders_sv.customer_name"]);
  });

  it("composes as a subquery; DuckDB's own (SHOW TABLES) is left alone", async () => {
    const r = await runStatement(
      runner,
      "SELECT count(*) AS n FROM show_semantic_dimensions('orders_sv') WHERE table_name = 'customers'",
    );
    expect(r.rows).to.deep.equal([[2n]]);
    const tables = await runStatement(runner, "SELECT name FROM (SHOW TABLES) WHERE name = 'orders'");
    expect(tables.rows).to.deep.equal([["orders"]]);
  });

  it("errors: out-of-order clauses, a missing view", async () => {
    expect(await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN orders_sv LIKE '%x%'")).to.include(
      "LIKE must come before IN",
    );
    expect(await errorOf(runner, "SHOW SEMANTIC DIMENSIONS IN nonexistent_view")).to.equal(
      "semantic view 'nonexistent_view' does not exist",
    );
  });
});
