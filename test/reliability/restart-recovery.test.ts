/**
 * Issue 9.1: a warehouse that restarts between queries. Each backend's driver classifies "this
 * connection is dead" (SQLAlchemy's is_disconnect); the pool then invalidates every connection from
 * before the outage, so with the default pre_ping = false the first query after the restart
 * succeeds or fails once with a retryable error, and the next one runs on a fresh connection.
 * Backend A and B: the real drivers against stand-ins stopped and restarted on the same port.
 * Backend C: the database file replaced (or deleted) under a running engine and service.
 */
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, OperationalError, SemanticView, createEngine } from "lib";
import type { Engine, PooledConnection } from "lib";
import { startService } from "../../example-service/lifespan.js";
import { startStandIn, standInEngine as aEngine } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { ReturningWarehouse } from "../support/stand-ins/snowflake/returning-warehouse.js";
import {
  DatabricksStandIn,
  STAND_IN_OPTIONS,
  standInEngine as bEngine,
  startAnotherStandIn,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { Sales as SalesB, SALES_ROWS } from "../support/sales-fixture.js";
import { recordingLogger, seedDatabaseFile } from "../service/support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";

class SalesA extends SemanticView("SALES", { COUNTRY: Dimension<string>(), REVENUE: Metric<bigint>() }) {}

type Outcome = "ok" | Error;

async function outcomeOf(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return error as Error;
  }
}

/** Checks out `n` connections at once and returns them, so the pool holds `n` sessions. */
async function fillPool(engine: Engine, n: number): Promise<void> {
  const held: PooledConnection[] = [];
  for (let i = 0; i < n; i++) held.push(await engine.connect());
  for (const conn of held) await conn.all("SELECT 1 AS one");
  for (const conn of held) await conn.release();
}

/** First query after a restart: fine, or one retryable failure; the second one always succeeds. */
function expectRecovered(first: Outcome, second: Outcome): void {
  if (first !== "ok") expect(first, String(first)).to.be.instanceOf(OperationalError);
  expect(second === "ok" ? "ok" : String(second)).to.equal("ok");
}

describe("reliability: recovery after a warehouse restart (issue 9.1)", function () {
  this.timeout(30_000);

  describe("backend A (snowflake-sdk against a restarted stand-in)", () => {
    it("the first query after the restart succeeds or fails once; every session from before is discarded", async () => {
      let standIn = await startStandIn();
      await using engine = aEngine(standIn, { poolSize: 2 });
      const revenue = () =>
        SalesA.query()
          .metrics(SalesA.REVENUE)
          .using(engine)
          .execute()
          .then((c) => c.fetchAllRows());
      try {
        await fillPool(engine, 2);
        expect(await outcomeOf(revenue)).to.equal("ok");
        const port = standIn.port;
        await standIn.close();
        standIn = await startStandIn({ port });
        const first = await outcomeOf(revenue);
        const second = await outcomeOf(revenue);
        expectRecovered(first, second);
        expect(engine._pool.invalidations).to.be.at.most(1);
        // Both sessions from before the outage are gone: one failed, the other was never reused.
        expect(standIn.logins.length).to.equal(1);
        expect(engine._pool.size).to.equal(1);
      } finally {
        await standIn.close();
      }
    });
  });

  describe("backend A: a warehouse that dies while a statement runs (issue 9.6)", () => {
    it("the statement fails with a retryable OperationalError at the heartbeat bound, not after the sdk's minute of retries", async function () {
      this.timeout(60_000);
      const standIn = await startStandIn();
      await using engine = aEngine(standIn, { heartbeatInterval: "300ms" });
      try {
        standIn.holdQueries = /SEMANTIC_VIEW/i;
        const port = standIn.port;
        const pending = outcomeOf(() => SalesA.query().metrics(SalesA.REVENUE).using(engine).execute());
        while (!standIn.queries.some((q) => /SEMANTIC_VIEW/i.test(q.sqlText)))
          await new Promise((resolve) => setTimeout(resolve, 10));
        await standIn.close(); // the warehouse dies with the statement in flight
        const outcome = await pending;
        expect(outcome).to.be.instanceOf(OperationalError);
        expect((outcome as OperationalError).code).to.equal("warehouse_unreachable");
        expect(engine._pool.invalidations, "a disconnect: the pool starts over").to.equal(1);
        // The sdk still retries the abandoned poll, its cancel and a heartbeat in the background
        // (sleeping up to 16 s between attempts, about a minute). A warehouse that comes back
        // answers each once, so they end instead of keeping the test process alive.
        const back = await ReturningWarehouse.listen(port);
        try {
          expect(await back.waitForRequests(3, 40_000)).to.be.at.least(1);
        } finally {
          await back.close();
        }
      } finally {
        await standIn.close();
      }
    });
  });

  describe("backend B (@databricks/sql against a restarted stand-in)", () => {
    const fixture = useStandIn();

    it("the first query after the restart succeeds or fails once; every session from before is discarded", async () => {
      let standIn: DatabricksStandIn = await startAnotherStandIn(fixture);
      await using engine = bEngine(standIn, { poolSize: 2 });
      const revenue = () =>
        SalesB.query()
          .metrics(SalesB.revenue)
          .using(engine)
          .execute()
          .then((c) => c.fetchAllRows());
      try {
        await fillPool(engine, 2);
        expect(await outcomeOf(revenue)).to.equal("ok");
        const port = standIn.port;
        await standIn.close();
        standIn = await DatabricksStandIn.start({
          ...STAND_IN_OPTIONS,
          certificate: fixture.standIn.certificate,
          port,
        });
        const first = await outcomeOf(revenue);
        const second = await outcomeOf(revenue);
        expectRecovered(first, second);
        expect(engine._pool.invalidations).to.be.at.most(1);
        expect(standIn.openedSessions).to.equal(1);
        expect(engine._pool.size).to.equal(1);
      } finally {
        await standIn.close();
      }
    });

    it("the example service recovers within one request (at most one 503, then 200)", async () => {
      let standIn: DatabricksStandIn = await startAnotherStandIn(fixture);
      const engine = bEngine(standIn, { poolSize: 2 });
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      const status = async () => (await fetch(`${service.url}revenue`)).status;
      try {
        expect(await status()).to.equal(200);
        const port = standIn.port;
        await standIn.close();
        standIn = await DatabricksStandIn.start({
          ...STAND_IN_OPTIONS,
          certificate: fixture.standIn.certificate,
          port,
        });
        const first = await status();
        expect([200, 503]).to.include(first);
        expect(await status()).to.equal(200);
        expect(await status()).to.equal(200);
      } finally {
        await service.shutdown();
        await standIn.close();
      }
    });
  });

  describe("backend C (a DuckDB file replaced or deleted under a running service)", () => {
    it("a replaced file is reopened at the next checkout; a deleted one answers 503 (never an empty database) until it is back", async () => {
      await using dir = await tempDir();
      const database = join(dir.path, "sales.duckdb");
      await seedDatabaseFile(database, SALES_ROWS);
      const engine = createEngine(new BackendCConfig({ database, poolSize: 2 }));
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      const revenue = async () => {
        const response = await fetch(`${service.url}revenue`);
        return { status: response.status, body: (await response.json()) as unknown };
      };
      try {
        expect((await revenue()).status).to.equal(200);
        // "Restart": a new database file takes the old one's place (other rows: JP only).
        const replacement = join(dir.path, "replacement.duckdb");
        await seedDatabaseFile(replacement, [{ country: "JP", region: "Asia Pacific", revenue: 7, cost: 1 }]);
        await rename(replacement, database);
        expect(await revenue()).to.deep.equal({ status: 200, body: [{ country: "JP", revenue: 7 }] });
        expect(engine._pool.invalidations).to.equal(1);

        await rm(database);
        await rm(`${database}.wal`, { force: true });
        const deleted = await revenue();
        expect(deleted.status).to.equal(503);
        expect((await revenue()).status, "still noticed, not recreated empty").to.equal(503);

        await seedDatabaseFile(database, SALES_ROWS);
        expect((await revenue()).status, "the file is back").to.equal(200);
      } finally {
        await service.shutdown();
      }
    });
  });
});
