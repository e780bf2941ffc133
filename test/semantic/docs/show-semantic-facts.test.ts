/** docs/reference/show-semantic-facts.rst: public facts, same columns as dimensions and metrics. */
import { expect } from "chai";
import { runStatement } from "../support/run.js";
import { createMemberViews, memberNames } from "../support/member-views.js";
import { TestSession } from "../support/session.js";

describe("docs/reference/SHOW SEMANTIC FACTS", () => {
  let session: TestSession;

  before(async () => {
    session = await TestSession.open();
    await createMemberViews(session);
  });
  after(() => session.close());

  const names = (sql: string) => memberNames(session, sql);

  it("lists public facts with their synonyms", async () => {
    expect((await runStatement(session, "SHOW SEMANTIC FACTS IN orders_sv")).rows).to.deep.equal([["memory", "main", "orders_sv", "orders", "net", "", '["net amount"]', ""]]);
    expect(await names("SHOW SEMANTIC FACTS")).to.deep.equal(["orders_sv.net"]);
    expect(await names("SHOW SEMANTIC FACTS IN SCHEMA other")).to.deep.equal([]);
    expect((await runStatement(session, "SELECT name FROM show_semantic_facts('orders_sv')")).rows).to.deep.equal([["net"]]);
  });
});
