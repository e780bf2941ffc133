/**
 * Backend B specifics of the query builder through the real `@databricks/sql` driver and the
 * loopback stand-in: the metric-view SQL and its typed ordinal parameters as the warehouse receives
 * them, in the configured catalog and schema. What every backend shares (rows, operators, value
 * types, into/iterInto) is in `test/shared/support/behaviour-suite.ts`.
 */
import { expect } from "chai";
import type { LogEvent } from "lib";
import {
  CATALOG,
  SCHEMA,
  standInEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { Sales } from "../support/sales-fixture.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

describe("backend B: queries through the Databricks driver", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  async function rowsOf(q: ReturnType<typeof revenueByCountry>, engine: ReturnType<typeof standInEngine>) {
    await using cursor = await q.using(engine).execute();
    return await cursor.fetchAllRows();
  }

  it("sends the metric-view SQL with the filter value as an ordinal parameter, in the configured catalog and schema", async () => {
    await using engine = standInEngine(fixture.standIn);
    const before = fixture.standIn.statements.length;
    const rows = await rowsOf(revenueByCountry().where(Sales.country.eq("US")), engine);
    expect(rows).to.deep.equal([{ country: "US", revenue: 425n }]);
    const received = fixture.standIn.statements.slice(before).filter((s) => s.sql.includes("MEASURE"));
    expect(received).to.have.length(1);
    expect(received[0]!.sql).to.equal(
      "SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales` WHERE `country` = ? GROUP BY ALL ORDER BY `revenue` DESC NULLS LAST",
    );
    expect(received[0]!.parameters).to.deep.equal([{ type: "STRING", value: "US" }]);
    expect(received[0]!).to.include({ catalog: CATALOG, schema: SCHEMA });
  });

  it("toSql() for the engine's dialect is the backtick/MEASURE form", async () => {
    await using engine = standInEngine(fixture.standIn);
    expect(revenueByCountry().using(engine).toSql()).to.match(
      /^SELECT `country` AS `country`, MEASURE\(`revenue`\) AS `revenue` FROM `sales`/,
    );
  });

  it("log events carry the statement id Databricks reports (the operation's id)", async () => {
    const events: LogEvent[] = [];
    await using engine = standInEngine(fixture.standIn, { log: (event) => events.push(event) });
    {
      await using cursor = await revenueByCountry().using(engine).execute();
      await cursor.fetchAllRows();
    }
    const query = events.find((e) => e.type === "query" && e.sql.includes("MEASURE"));
    expect(query?.type === "query" ? query.queryId : undefined).to.equal(fixture.standIn.operationIds.at(-1));
  });
});
