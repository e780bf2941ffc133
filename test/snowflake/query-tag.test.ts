/**
 * Backend A statements carry QUERY_TAG (issue 20, item 6; docs.snowflake.com/en/sql-reference/parameters
 * #query-tag), per statement as snowflake-sdk sends it (`parameters.QUERY_TAG` of the query request), so
 * warehouse admins can attribute cost: by default the library, the view and the selected field names,
 * never a value; `query_tag` replaces it, an empty one sends none. Log and tracing events carry the
 * warehouse's query id, on success and on failure.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import { expect } from "chai";
import { ProgrammingError, createEngine, type LogEvent } from "lib";
import { Sales } from "../support/sales-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { standInConfig, useSnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";
import { QUERY_CHANNEL, type QueryTraceContext } from "../../runtime/observability/channels.js";

const byCountry = () => Sales.query().metrics(Sales.revenue).dimensions(Sales.country).where(Sales.country.eq("US"));

describe("backend A: QUERY_TAG and query ids", function () {
  this.timeout(20_000);
  const stand = useSnowflakeStandIn();

  it("by default each statement is tagged with lib, the view and the field names, never a value", async () => {
    await using engine = createEngine(standInConfig(stand.standIn));
    const from = stand.standIn.queries.length;
    {
      await using cursor = await byCountry().using(engine).execute();
      expect(await cursor.fetchAllRows()).to.have.length(1);
    }
    const sent = stand.standIn.queries.slice(from);
    expect(sent.map((q) => q.queryTag)).to.deep.equal([
      '{"app":"lib"}', // the session setup
      '{"app":"lib","view":"sales","fields":["country","revenue"]}',
    ]);
    expect(sent[1]!.queryTag).not.to.contain("US");
    await using conn = await engine.connect();
    await conn.all("SELECT 1 AS one");
    expect(stand.standIn.queries.at(-1)!.queryTag).to.equal('{"app":"lib"}');
  });

  it("query_tag replaces the tag on every statement; an empty query_tag sends none", async () => {
    {
      await using engine = createEngine(standInConfig(stand.standIn, { queryTag: "team=finance" }));
      const from = stand.standIn.queries.length;
      await using cursor = await byCountry().using(engine).execute();
      await cursor.fetchAllRows();
      expect(stand.standIn.queries.slice(from).map((q) => q.queryTag)).to.deep.equal(["team=finance", "team=finance"]);
    }
    await using engine = createEngine(standInConfig(stand.standIn, { queryTag: "" }));
    const from = stand.standIn.queries.length;
    await using cursor = await byCountry().using(engine).execute();
    await cursor.fetchAllRows();
    expect(stand.standIn.queries.slice(from).map((q) => q.parameters?.["QUERY_TAG"])).to.deep.equal([
      undefined,
      undefined,
    ]);
  });

  it("a query_tag longer than Snowflake's 2000 characters is a ValidationError naming the field", () => {
    expect(() => standInConfig(stand.standIn, { queryTag: "x".repeat(2001) })).to.throw(/query_?[tT]ag.*2000/);
  });

  it("log and tracing events carry the warehouse's query id, also for a failed statement", async () => {
    const events: LogEvent[] = [];
    const traced: string[] = [];
    const channel = diagnosticsChannel.tracingChannel<QueryTraceContext>(QUERY_CHANNEL);
    const ignore = () => undefined;
    const handlers = {
      start: ignore,
      end: ignore,
      asyncStart: ignore,
      asyncEnd: (context: QueryTraceContext) => void traced.push(`ok ${context.queryId}`),
      error: (context: QueryTraceContext) => void traced.push(`error ${context.queryId}`),
    };
    channel.subscribe(handlers);
    try {
      await using engine = createEngine(standInConfig(stand.standIn), { log: (event) => events.push(event) });
      {
        await using cursor = await byCountry().using(engine).execute();
        await cursor.fetchAllRows();
      }
      const done = stand.standIn.queries.at(-1)!;
      await using conn = await engine.connect();
      const error = await failureOf(conn.all("SELEC 1"));
      expect(error).to.be.instanceOf(ProgrammingError);
      const failed = stand.standIn.queries.at(-1)!;
      expect((error as ProgrammingError).queryId).to.equal(failed.queryId);
      const queries = events.filter((e) => e.type === "query" || e.type === "query-error");
      expect(queries.map((e) => [e.type, e.queryId])).to.deep.include.members([
        ["query", done.queryId],
        ["query-error", failed.queryId],
      ]);
      expect(traced).to.include.members([`ok ${done.queryId}`, `error ${failed.queryId}`]);
    } finally {
      channel.unsubscribe(handlers);
    }
  });
});
