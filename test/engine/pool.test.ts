import { expect } from "chai";
import { LibConnectionError, PoolTimeoutError } from "lib";
import type { PooledConnection } from "lib";
import { createRequire } from "node:module";
import { DuckDBDriver } from "../../runtime/dialects/duckdb/duckdb-driver.js";
import { FaultInjectingDriver, cSettings, plainEngine } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";

const genericPoolErrors = createRequire(import.meta.url)("generic-pool/lib/errors") as {
  TimeoutError: new (m: string) => Error;
};

describe("engine: pool", () => {
  const tmp = useTempDir();

  it("keeps pool_size connections and closes overflow ones when returned", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 2, maxOverflow: 2 });
    const pool = engine._pool;
    expect(pool.max).to.equal(4);
    const held: PooledConnection[] = [];
    for (let i = 0; i < 4; i++) held.push(await engine.connect());
    expect(pool.opened).to.equal(4);
    expect(pool.borrowed).to.equal(4);
    for (const conn of held) await conn.release();
    expect(pool.size).to.equal(2);
    expect(pool.available).to.equal(2);
    expect(pool.closed).to.equal(2);
    // The kept ones are reused: no new physical connection.
    await using again = await engine.connect();
    await again.all("SELECT 1");
    expect(pool.opened).to.equal(4);
  });

  it("an in-memory engine never overflows (the default max_overflow is not applied): a second caller waits for the one database", async () => {
    await using engine = plainEngine({ database: ":memory:", poolSize: 1, timeout: 30 });
    expect(engine._pool.max).to.equal(1);
    const first = await engine.connect();
    await first.run("CREATE TABLE t AS SELECT 7 AS x");
    const waiting = engine.connect();
    expect(engine._pool.pending).to.equal(1);
    await first.commit();
    await first.release();
    await using second = await waiting;
    expect(await second.all("SELECT x FROM t")).to.deep.equal([{ x: 7 }]);
    expect(engine._pool.opened).to.equal(1);
  });

  it("rejects with generic-pool's TimeoutError when no connection frees up within timeout", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 0, timeout: 1 });
    await using held = await engine.connect();
    let caught: unknown;
    try {
      await engine.connect();
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(PoolTimeoutError);
    expect(caught).to.be.instanceOf(genericPoolErrors.TimeoutError);
    expect(PoolTimeoutError).to.equal(genericPoolErrors.TimeoutError);
    expect((caught as Error).name).to.equal("TimeoutError");
    expect(caught).not.to.be.instanceOf(LibConnectionError);
    await held.all("SELECT 1"); // the holder is unaffected
  });

  it("hands a returned connection to a waiting acquirer", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 0, timeout: 30 });
    const first = await engine.connect();
    const waiting = engine.connect();
    expect(engine._pool.pending).to.equal(1);
    await first.release();
    await using second = await waiting;
    expect(await second.all("SELECT 42 AS x")).to.deep.equal([{ x: 42 }]);
    expect(engine._pool.opened).to.equal(1);
  });

  it("replaces connections older than recycle at checkout", async () => {
    let now = 1_000_000;
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, recycle: 60 }, { pool: { now: () => now } });
    await (await engine.connect()).release();
    await (await engine.connect()).release();
    expect(engine._pool.opened).to.equal(1);
    now += 61_000; // older than 60 s
    await using conn = await engine.connect();
    expect(engine._pool.opened).to.equal(2);
    expect(engine._pool.closed).to.equal(1);
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
  });

  it("pre_ping replaces a dead connection before handing it out", async () => {
    const driver = new FaultInjectingDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
    );
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, prePing: true }, { driver });
    await (await engine.connect()).release();
    // Kill the idle physical connection underneath the pool.
    await driver.connections[0]!.close();
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 7 AS seven")).to.deep.equal([{ seven: 7 }]);
    expect(engine._pool.opened).to.equal(2);
    expect(engine._pool.size).to.equal(1);
  });

  it("a validate whose ping throws does not leak the connection (generic-pool trap)", async () => {
    const driver = new FaultInjectingDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
    );
    await using engine = plainEngine(
      { database: tmp.file(), poolSize: 1, maxOverflow: 0, prePing: true, timeout: 5 },
      { driver },
    );
    await (await engine.connect()).release();
    driver.throwingPings = 1;
    // The idle connection fails validation by throwing: it must be destroyed and replaced, not
    // left "in test" counting towards max = 1 (which would make this checkout time out).
    const conn = await engine.connect();
    expect(engine._pool.opened).to.equal(2);
    expect(engine._pool.closed).to.equal(1);
    expect(engine._pool.size).to.equal(1);
    await conn.release();
    await using again = await engine.connect();
    expect(engine._pool.size).to.equal(1);
    expect(engine._pool.borrowed).to.equal(1);
  });

  it("pings that keep throwing end in LibConnectionError after a few fresh connections (not a login storm), and the pool recovers", async () => {
    const driver = new FaultInjectingDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
    );
    await using engine = plainEngine(
      { database: tmp.file(), poolSize: 1, maxOverflow: 0, prePing: true, timeout: 1 },
      { driver, pool: { createBackoffMs: 5 } },
    );
    driver.ping = "throw";
    const caught = await engine.connect().catch((error: unknown) => error);
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect((caught as Error).message).to.match(/pre_ping: 3 connections in a row failed/);
    expect(driver.openAttempts).to.equal(3);
    driver.ping = "ok";
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    expect(engine._pool.size).to.equal(1);
    expect(engine._pool.borrowed).to.equal(1);
  });

  it("timeout bounds only the wait for a busy pool: an open that takes longer than timeout still succeeds (SQLAlchemy)", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 0, timeout: 1 });
    // A 1.2 s login, modelled by a slow connect listener: bounded by the backend, not by `timeout`.
    engine._pool.on("connect", () => new Promise((resolve) => setTimeout(resolve, 1_200)));
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    expect(engine._pool.opened).to.equal(1);
  });

  it("timeout = 0: a fresh engine's first checkout opens a connection; with every connection out it fails at once", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 1, timeout: 0 });
    await using first = await engine.connect();
    await using second = await engine.connect(); // room for the overflow connection: no waiting involved
    const caught = await engine.connect().catch((error: unknown) => error);
    expect(caught).to.be.instanceOf(PoolTimeoutError);
    expect(engine._pool.pending).to.equal(0);
    await second.release();
    await using third = await engine.connect(); // an idle one is free again
    expect(engine._pool.opened).to.equal(2);
  });

  it("a failing open surfaces as LibConnectionError quickly, without a tight retry loop", async () => {
    const driver = new FaultInjectingDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
    );
    driver.failOpens = Infinity;
    await using engine = plainEngine(
      { database: tmp.file(), poolSize: 1, timeout: 30 },
      { driver, pool: { createBackoffMs: 20 } },
    );
    let caught: unknown;
    try {
      await engine.connect();
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect((caught as LibConnectionError).cause).to.be.instanceOf(Error);
    expect(((caught as LibConnectionError).cause as Error).message).to.match(/injected open failure/);
    // generic-pool alone would retry create() for the full 30 s timeout.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(driver.openAttempts).to.equal(1);
    // Later checkouts back off but still fail with the error, and recover once opening works.
    const second = await engine.connect().catch((error: unknown) => error);
    expect(second).to.be.instanceOf(LibConnectionError);
    driver.failOpens = 0;
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 1 AS ok")).to.deep.equal([{ ok: 1 }]);
    expect(driver.openAttempts).to.equal(3);
  });

  it("an unopenable database file surfaces as LibConnectionError with DuckDB's error as cause", async () => {
    await using engine = plainEngine({ database: tmp.file("missing-dir/nested/x.duckdb"), poolSize: 1 });
    let caught: unknown;
    try {
      await engine.connect();
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect(String(((caught as Error).cause as Error).message)).to.match(/IO Error|Cannot open/i);
  });

  it("runs connect listeners in registration order, awaited, once per new physical connection", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 2, maxOverflow: 0 });
    const events: string[] = [];
    engine._pool.on("connect", async (conn) => {
      events.push("first:start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      await conn.run("CREATE TABLE IF NOT EXISTS seen (n INTEGER)");
      await conn.run("INSERT INTO seen VALUES (?)", [events.length]);
      events.push("first:end");
    });
    engine._pool.on("connect", async (conn) => {
      events.push("second");
      const rows = await conn.all("SELECT count(*) AS n FROM seen");
      expect(rows[0]!["n"]).to.be.a("bigint");
      await conn.commit();
    });
    const a = await engine.connect();
    expect(events).to.deep.equal(["first:start", "first:end", "second"]);
    const b = await engine.connect();
    expect(events).to.have.length(6);
    await a.release();
    await b.release();
    await (await engine.connect()).release(); // reused: no listener run
    expect(events).to.have.length(6);
    await using check = await engine.connect();
    expect(await check.all("SELECT count(*) AS n FROM seen")).to.deep.equal([{ n: 2n }]);
  });

  it("a failing connect listener closes the connection and fails the checkout with LibConnectionError", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1 }, { pool: { createBackoffMs: 1 } });
    const failure = new Error("listener broke");
    let fail = true;
    engine._pool.on("connect", () => {
      if (fail) throw failure;
    });
    const caught = await engine.connect().catch((error: unknown) => error);
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect((caught as Error).cause).to.equal(failure);
    expect(engine._pool.opened).to.equal(1);
    expect(engine._pool.closed).to.equal(1);
    expect(engine._pool.size).to.equal(0);
    fail = false;
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
  });

  it("resets a returned connection: its open transaction is rolled back", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1 });
    {
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE t (x INTEGER)");
      await conn.commit();
      await conn.run("INSERT INTO t VALUES (1)");
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 1n }]);
    } // released without commit
    await using conn = await engine.connect();
    expect(engine._pool.opened).to.equal(1); // same physical connection
    expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
  });

  it("a released connection refuses further use; release is idempotent", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1 });
    const conn = await engine.connect();
    await conn.release();
    await conn.release();
    expect(conn.released).to.equal(true);
    let caught: unknown;
    try {
      await conn.all("SELECT 1");
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).to.match(/released/);
    expect(engine._pool.borrowed).to.equal(0);
  });

  it("a call returned un-awaited from an `await using` block finishes before the connection is reset and handed on", async () => {
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 0, timeout: 30 });
    {
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE t (x INTEGER)");
      await conn.commit();
    }
    const countAfterInsert = async () => {
      await using conn = await engine.connect();
      await conn.run("INSERT INTO t VALUES (1)");
      return conn.all("SELECT count(*) AS n FROM t"); // not awaited: the scope exits while it runs
    };
    // The count sees the block's own uncommitted row: the release's rollback waited for it.
    expect(await countAfterInsert()).to.deep.equal([{ n: 1n }]);
    expect(await Promise.all([countAfterInsert(), countAfterInsert()])).to.deep.equal([[{ n: 1n }], [{ n: 1n }]]);

    const conn = await engine.connect();
    const settled: string[] = [];
    const running = conn.all("SELECT count(*) AS n FROM range(3000000)").then(() => settled.push("call"));
    await conn.release().then(() => settled.push("release"));
    await running;
    expect(settled).to.deep.equal(["call", "release"]);
    expect(engine._pool.borrowed).to.equal(0);
    await using after = await engine.connect();
    expect(await after.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
  });

  it("dispose closes every physical connection, also ones still checked out", async () => {
    const engine = plainEngine({ database: tmp.file(), poolSize: 2, maxOverflow: 1 });
    const a = await engine.connect();
    const b = await engine.connect();
    const c = await engine.connect();
    await b.release();
    await c.release();
    expect(engine._pool.opened).to.equal(3);
    const disposal = engine.dispose();
    await a.release(); // comes back after dispose started: closed, not pooled
    await disposal;
    expect(engine._pool.closed).to.equal(3);
    expect(engine._pool.size).to.equal(0);
    const caught = await engine.connect().catch((error: unknown) => error);
    expect(caught).to.be.instanceOf(LibConnectionError);
    await engine.dispose(); // idempotent
  });

  it("the database file is released after dispose, so it can be reopened read-only", async () => {
    const path = tmp.file();
    {
      await using engine = plainEngine({ database: path, poolSize: 1 });
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE t AS SELECT 1 AS x");
      await conn.commit();
    }
    await using readOnly = plainEngine({ database: path, poolSize: 1, readOnly: true });
    await using conn = await readOnly.connect();
    expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 1 }]);
  });
});
