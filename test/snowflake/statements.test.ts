/** Splitting Snowflake SQL into statements, and several statements in one execute() on the stand-in. */
import { expect } from "chai";
import { ProgrammingError } from "lib";
import { splitSnowflakeStatements } from "../../runtime/dialects/snowflake/snowflake-statements.js";
import { standInEngine, withSnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";

describe("backend A statements", function () {
  this.timeout(20_000);

  it("splits at top-level semicolons only", () => {
    expect(splitSnowflakeStatements("SELECT 1; SELECT 2;")).to.deep.equal(["SELECT 1", "SELECT 2"]);
    expect(
      splitSnowflakeStatements(`SELECT 'a;b', 'it''s;', 'back\\';slash' ; SELECT "semi;colon" -- c;omment
      FROM t /* x;y */ // z;w
      ; CREATE FUNCTION f() RETURNS INT AS $$ 1; $$;  -- trailing; comment`),
    ).to.deep.equal([
      "SELECT 'a;b', 'it''s;', 'back\\';slash'",
      'SELECT "semi;colon" -- c;omment\n      FROM t /* x;y */ // z;w',
      "CREATE FUNCTION f() RETURNS INT AS $$ 1; $$",
    ]);
    expect(splitSnowflakeStatements("  ;; -- nothing\n")).to.deep.equal([]);
  });

  it("execute() runs several statements one request each and returns the last result", async () => {
    await withSnowflakeStandIn({}, async (standIn) => {
      await using engine = standInEngine(standIn);
      await using conn = await engine.connect();
      const rows = await conn.all(
        "CREATE TABLE multi_t (x INTEGER); INSERT INTO multi_t VALUES (1), (2); SELECT SUM(x) AS total FROM multi_t;",
      );
      expect(rows).to.deep.equal([{ total: 3n }]);
      expect(standIn.queries.slice(-3).map((q) => q.sqlText)).to.deep.equal([
        "CREATE TABLE multi_t (x INTEGER)",
        "INSERT INTO multi_t VALUES (1), (2)",
        "SELECT SUM(x) AS total FROM multi_t",
      ]);
      const error = await failureOf(conn.all("SELECT ?; SELECT ?", [1, 2]));
      expect(error).to.be.instanceOf(ProgrammingError);
    });
  });
});
