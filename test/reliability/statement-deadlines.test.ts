/**
 * Issue 22 item 7: a backend A statement whose answer never came (heartbeats still answered) was
 * pending after 240 s with default settings, and `timeoutMs: 3000` fired after 6 s: the connection
 * waited for the warehouse to confirm the cancellation before giving up. Now `request_timeout`
 * bounds every statement by default (10 minutes, configurable), and `timeoutMs` rejects at its
 * deadline while the sdk is still waiting or polling; the cancellation goes on in the background.
 * Elapsed times are the behaviour under test here, so they are asserted, with a wide margin.
 */
import { expect } from "chai";
import { OperationalError, QueryCancelledError, type Engine } from "lib";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../../runtime/dialects/snowflake/snowflake-driver.js";
import { Sales } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";
import { eventually } from "../support/eventually.js";
import {
  standInConfig,
  standInEngine,
  startStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";

const revenue = () => Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
/** The cancellation grace the connection used to wait on top of the deadline. */
const OLD_GRACE_MS = 3_000;

/** How long `run` takes to fail, on an engine whose connection is already logged in. */
async function elapsed<T>(engine: Engine, run: () => Promise<T>): Promise<{ ms: number; error: Error }> {
  {
    await using conn = await engine.connect();
    await conn.all("SELECT 1 AS warm");
  }
  const started = performance.now();
  const error = await failureOf(run());
  return { ms: performance.now() - started, error };
}

describe("reliability: backend A statement deadlines", function () {
  this.timeout(30_000);
  let standIn: SnowflakeStandIn;
  beforeEach(async () => {
    standIn = await startStandIn();
  });
  afterEach(() => standIn.close());

  it("request_timeout has a default bound, and `0s` removes it", () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).to.equal(600_000);
    expect(standInConfig(standIn).settings.requestTimeout).to.equal(undefined); // the driver applies the default
    expect(standInConfig(standIn, { requestTimeout: "0s" }).settings.requestTimeout).to.equal(0);
  });

  it("a statement the warehouse never answers fails at request_timeout with OperationalError", async () => {
    standIn.stallQueries = /"SALES"/;
    await using engine = standInEngine(standIn, { requestTimeout: "1s" });
    const { ms, error } = await elapsed(engine, async () => {
      await using cursor = await revenue().using(engine).execute();
      await cursor.fetchAllRows();
    });
    expect(error).to.be.instanceOf(OperationalError);
    expect(error).to.have.property("code", "request_timeout");
    expect(ms, `failed after ${ms.toFixed(0)} ms`).to.be.below(1_000 + OLD_GRACE_MS / 2);
    expect(standIn.heartbeats, "heartbeats were answered meanwhile").to.be.at.least(0);
  });

  for (const [name, arrange] of [
    ["never answered, abort ignored", (s: SnowflakeStandIn) => (s.stallQueries = /"SALES"/)],
    ["answered 'in progress' while the sdk polls", undefined],
  ] as const) {
    it(`timeoutMs fires at its deadline (${name}), and the engine keeps answering`, async () => {
      const polling = arrange === undefined;
      if (polling) {
        await standIn.close();
        standIn = await startStandIn({ inProgress: { match: /"SALES"/, polls: Infinity } });
      } else arrange(standIn);
      await using engine = standInEngine(standIn);
      const { ms, error } = await elapsed(engine, () => revenue().using(engine).execute({ timeoutMs: 1_000 }));
      expect(error).to.be.instanceOf(QueryCancelledError);
      expect(error).to.have.property("reason", "timeout");
      expect(ms, `rejected after ${ms.toFixed(0)} ms`).to.be.below(1_000 + OLD_GRACE_MS / 2); // was 1000 + 3000
      // The cancellation goes on in the background: the abort-request arrives after the rejection.
      await eventually(() => standIn.aborts.length > 0);
      expect(standIn.aborts, "the cancellation was sent").to.have.length(1);
      standIn.stallQueries = undefined;
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });
  }
});
