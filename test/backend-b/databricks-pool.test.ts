/**
 * Backend B under the engine's pool: sessions are reused, pre_ping replaces a session the
 * warehouse forgot, cancellation reaches the warehouse (`CancelOperation`) and leaves the session
 * usable, disposal closes the sessions, and commit/rollback are accepted as no-ops.
 */
import { expect } from "chai";
import { OperationalError, QueryCancelledError, WarehouseError } from "lib";
import type { Engine } from "lib";
import { DatabricksDriver } from "../../runtime/dialects/databricks/databricks-driver.js";
import {
  driverSettings,
  standInEngine,
  startAnotherStandIn,
  useStandIn,
  type DatabricksStandIn,
} from "./databricks-stand-in-fixture.js";
import { Sales } from "../support/sales-fixture.js";

async function totalRevenue(engine: Engine, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute(options);
  return await cursor.fetchAllRows();
}

/** Resolves once the stand-in has received `count` more statements. */
async function statementsArrived(standIn: DatabricksStandIn, from: number, count = 1): Promise<void> {
  while (standIn.statements.length < from + count) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("backend B: pooling, cancellation, lifecycle", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("reuses one session for consecutive queries (pool_size 1)", async () => {
    await using engine = standInEngine(fixture.standIn);
    const opened = fixture.standIn.openedSessions;
    for (let i = 0; i < 3; i++) expect(await totalRevenue(engine)).to.deep.equal([{ revenue: 1035n }]);
    expect(fixture.standIn.openedSessions).to.equal(opened + 1);
    expect(engine._pool.borrowed).to.equal(0);
  });

  it("pre_ping replaces a session the warehouse no longer knows; without it the query fails", async () => {
    const standIn = await startAnotherStandIn(fixture);
    try {
      {
        await using engine = standInEngine(standIn, { prePing: true });
        await totalRevenue(engine);
        standIn.dropSessions();
        expect(await totalRevenue(engine)).to.deep.equal([{ revenue: 1035n }]);
        expect(standIn.openedSessions).to.equal(2);
      }
      {
        await using engine = standInEngine(standIn, { prePing: false });
        await totalRevenue(engine);
        standIn.dropSessions();
        let error: unknown;
        try {
          await totalRevenue(engine);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(OperationalError);
        expect((error as Error).message).to.match(/Invalid SessionHandle/);
      }
    } finally {
      await standIn.close();
    }
  });

  it("an AbortSignal cancels the running statement on the warehouse; the session stays usable", async () => {
    const standIn = await startAnotherStandIn(fixture);
    try {
      await using engine = standInEngine(standIn);
      await totalRevenue(engine);
      standIn.holdStatements = true;
      const controller = new AbortController();
      const before = standIn.statements.length;
      const pending = totalRevenue(engine, { signal: controller.signal });
      await statementsArrived(standIn, before);
      controller.abort();
      let error: unknown;
      try {
        await pending;
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(QueryCancelledError);
      expect((error as QueryCancelledError).reason).to.equal("aborted");
      expect(standIn.cancelledOperations).to.equal(1);
      standIn.holdStatements = false;
      expect(await totalRevenue(engine)).to.deep.equal([{ revenue: 1035n }]);
      expect(standIn.openedSessions).to.equal(1);
    } finally {
      await standIn.close();
    }
  });

  it("timeoutMs cancels a statement that runs too long", async () => {
    const standIn = await startAnotherStandIn(fixture);
    try {
      await using engine = standInEngine(standIn);
      await totalRevenue(engine); // the session is open: timeoutMs also covers opening one
      standIn.holdStatements = true;
      let error: unknown;
      try {
        await totalRevenue(engine, { timeoutMs: 200 });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(QueryCancelledError);
      expect((error as QueryCancelledError).reason).to.equal("timeout");
      expect(standIn.cancelledOperations).to.equal(1);
    } finally {
      await standIn.close();
    }
  });

  it("interrupt() on a physical connection cancels its statement (OperationalError) and the connection runs the next one", async () => {
    const standIn = await startAnotherStandIn(fixture);
    const driver = new DatabricksDriver(driverSettings(standIn));
    try {
      const connection = await driver.openConnection();
      standIn.holdStatements = true;
      const pending = connection.execute("SELECT 1 AS one");
      connection.interrupt(); // lands before the statement is even submitted: still cancels it
      let error: unknown;
      try {
        await pending;
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(OperationalError);
      expect((error as WarehouseError).code).to.equal("CANCELED");
      standIn.holdStatements = false;
      expect((await connection.execute("SELECT 2 AS two")).rows).to.deep.equal([[2]]);
      expect(await connection.ping()).to.equal(true);
      await connection.commit();
      await connection.rollback();
      await connection.reset();
      await connection.close();
      expect(await connection.ping()).to.equal(false);
    } finally {
      await driver.destroy();
      await standIn.close();
    }
  });

  it("disposing the engine closes its sessions on the warehouse", async () => {
    const standIn = await startAnotherStandIn(fixture);
    try {
      const engine = standInEngine(standIn, { poolSize: 2 });
      await Promise.all([totalRevenue(engine), totalRevenue(engine)]);
      expect(standIn.liveSessions).to.be.within(1, 2);
      await engine.dispose();
      expect(standIn.liveSessions).to.equal(0);
      expect(standIn.closedSessions).to.equal(standIn.openedSessions);
    } finally {
      await standIn.close();
    }
  });

  it("commit() and rollback() on a pooled connection are accepted (Databricks statements autocommit)", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    await conn.run("SELECT 1");
    await conn.commit();
    await conn.rollback();
    expect(await conn.all("SELECT 3 AS three")).to.deep.equal([{ three: 3 }]);
  });
});
