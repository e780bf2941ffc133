/**
 * Backend A on an account whose QUOTED_IDENTIFIERS_IGNORE_CASE defaults to TRUE (issue 20, item 1;
 * docs.snowflake.com/en/sql-reference/parameters#quoted-identifiers-ignore-case): letters in quoted
 * identifiers then resolve upper case, so a member created as `"orderedAt"` is not found and aliases
 * come back upper case. Each session pins the parameter FALSE, and semantic-query rows key by position
 * (the compiler knows the column order), so rows keep their field names either way.
 */
import { expect } from "chai";
import { ProgrammingError, type Engine } from "lib";
import { Orders, SALES_BY_COUNTRY, Sales } from "../support/sales-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { standInEngine, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";

describe("backend A on an account with QUOTED_IDENTIFIERS_IGNORE_CASE = TRUE", function () {
  this.timeout(20_000);
  let standIn: SnowflakeStandIn;
  let engine: Engine;

  before(async () => {
    standIn = await startStandIn({ quotedIdentifiersIgnoreCase: true });
    engine = standInEngine(standIn);
  });
  after(async () => {
    await engine.dispose();
    await standIn.close();
  });

  it("the stand-in models the account default: an unpinned session folds quoted aliases to upper case", async () => {
    await using conn = await engine.connect();
    await conn.run("ALTER SESSION SET QUOTED_IDENTIFIERS_IGNORE_CASE = TRUE");
    try {
      expect(await conn.all('SELECT 1 AS "one"')).to.deep.equal([{ ONE: 1 }]);
      // A member created quoted in mixed case no longer resolves.
      const error = await failureOf(
        conn.all('SELECT * FROM SEMANTIC_VIEW("ORDERS" DIMENSIONS "orderedOn" AS "orderedOn")'),
      );
      expect(error).to.be.instanceOf(ProgrammingError);
      expect(error.message).to.match(/invalid identifier 'ORDEREDON'/);
    } finally {
      await conn.run("ALTER SESSION SET QUOTED_IDENTIFIERS_IGNORE_CASE = FALSE");
    }
  });

  it("every session pins it FALSE: mixed-case members resolve and rows key by field name", async () => {
    await using cursor = await Orders.query()
      .metrics(Orders.orderCount)
      .dimensions(Orders.orderedOn, Orders.status)
      .orderBy(Orders.orderedOn.asc())
      .using(engine)
      .execute();
    const rows = await cursor.fetchAllRows();
    expect(rows.map((r) => Object.keys(r))).to.deep.equal([
      ["orderedOn", "status", "orderCount"],
      ["orderedOn", "status", "orderCount"],
      ["orderedOn", "status", "orderCount"],
    ]);
    expect(rows.map((r) => [r.orderedOn.toISOString().slice(0, 10), r.status, r.orderCount])).to.deep.equal([
      ["1969-12-31", "shipped", 1n],
      ["2024-02-29", "open", 1n],
      ["2024-03-01", "open", 1n],
    ]);
    const setup = standIn.queries.find((q) => /^ALTER SESSION/i.test(q.sqlText));
    expect(setup?.sqlText).to.match(/QUOTED_IDENTIFIERS_IGNORE_CASE = FALSE/);
  });

  it("rows key by field name by position even on a session that returns upper-cased aliases", async () => {
    // The pool's one connection is switched to TRUE, as a session that lost the pin would be.
    {
      await using conn = await engine.connect();
      await conn.run("ALTER SESSION SET QUOTED_IDENTIFIERS_IGNORE_CASE = TRUE");
      const sql = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).toSql({ dialect: "backend_a" });
      expect(Object.keys((await conn.all(sql))[0]!)).to.deep.equal(["COUNTRY", "REVENUE"]);
    }
    try {
      await using cursor = await Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .orderBy(Sales.revenue.desc())
        .using(engine)
        .execute();
      expect(cursor.columns.map((c) => c.name)).to.deep.equal(["country", "revenue"]);
      expect(await cursor.fetchAllRows()).to.deep.equal(
        SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue })),
      );
    } finally {
      await using conn = await engine.connect();
      await conn.run("ALTER SESSION SET QUOTED_IDENTIFIERS_IGNORE_CASE = FALSE");
    }
  });
});
