/** docs/reference/show-semantic-facts.rst: public facts, same columns as dimensions and metrics. */
import { expect } from "chai";
import { runStatement } from "../support/statement-rows.js";
import { createMemberViews, memberNames } from "../support/member-views.js";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs/reference/SHOW SEMANTIC FACTS", () => {
  let runner: DocsRunner;

  before(async () => {
    runner = await DocsRunner.open();
    await createMemberViews(runner);
  });
  after(() => runner.close());

  const names = (sql: string) => memberNames(runner, sql);

  it("lists public facts with their synonyms", async () => {
    expect((await runStatement(runner, "SHOW SEMANTIC FACTS IN orders_sv")).rows).to.deep.equal([
      ["memory", "main", "orders_sv", "orders", "net", "", '["net amount"]', ""],
    ]);
    expect(await names("SHOW SEMANTIC FACTS")).to.deep.equal(["orders_sv.net"]);
    expect(await names("SHOW SEMANTIC FACTS IN SCHEMA other")).to.deep.equal([]);
    expect((await runStatement(runner, "SELECT name FROM show_semantic_facts('orders_sv')")).rows).to.deep.equal([
      ["net"],
    ]);
  });
});
