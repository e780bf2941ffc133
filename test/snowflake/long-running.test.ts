/**
 * Backend A statements that Snowflake reports as still running: the query-request answers 333333
 * ("query in progress") and the sdk polls the result URL until the result is there. Through the real
 * snowflake-sdk: the rows arrive after several polls, and a timeout cancels a statement that is
 * still running (abort-request, then the poll answers "canceled").
 */
import { expect } from "chai";
import { QueryCancelledError } from "lib";
import { Sales } from "../support/sales-fixture.js";
import { SALES_BY_COUNTRY } from "../support/sales-fixture.js";
import { standInEngine, withSnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";
import { eventually } from "../support/eventually.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

describe("backend A: long-running statements (query-in-progress polling)", function () {
  this.timeout(20_000);

  it("a statement answered 'in progress' is polled until its rows are there", async () => {
    await withSnowflakeStandIn({ inProgress: { match: /SEMANTIC_VIEW/, polls: 3 } }, async (standIn) => {
      await using engine = standInEngine(standIn);
      await using cursor = await revenueByCountry().using(engine).execute();
      expect(await cursor.fetchAllRows()).to.deep.equal(
        SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue })),
      );
      expect(standIn.resultPolls).to.equal(3);
    });
  });

  it("timeoutMs cancels a statement that is still running: abort-request, then the connection is reused", async () => {
    await withSnowflakeStandIn({ inProgress: { match: /"SALES"/, polls: Infinity } }, async (standIn) => {
      // No overflow: the next checkout waits for the cancelled statement to end instead of opening another session.
      await using engine = standInEngine(standIn, { maxOverflow: 0 });
      // Long enough for the sdk's first result poll even on a loaded machine (300 ms was not, at load ~25).
      const error = await failureOf(revenueByCountry().using(engine).execute({ timeoutMs: 1_000 }));
      expect(error).to.be.instanceOf(QueryCancelledError);
      // Once the sdk knows the query id (from the 333333 answer) it aborts by query id.
      const running = standIn.queries.at(-1)!;
      await eventually(() => standIn.aborts.length > 0); // sent in the background after the rejection
      expect(standIn.aborts).to.have.length(1);
      expect([running.requestId, running.queryId]).to.include(standIn.aborts[0]);
      expect(standIn.resultPolls).to.be.greaterThan(0);
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      expect(standIn.logins).to.have.length(1);
    });
  });
});
