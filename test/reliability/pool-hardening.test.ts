/**
 * Issue 9, pool items on a real in-process DuckDB (file-backed, so the pool may hold several
 * connections): execute()'s `signal`/`timeoutMs` cover the wait for a connection (9.4), failed
 * pre-pings back off like failed opens (9.5), out-of-range timers are rejected (9.8), overflow
 * connections never stay idle (9.12), and `timeout` has SQLAlchemy's meaning (9.14). Counts and
 * outcomes only.
 */
import { expect } from "chai";
import {
  BackendAConfig,
  BackendCConfig,
  Dimension,
  Metric,
  PoolTimeoutError,
  QueryCancelledError,
  SemanticView,
  ValidationError,
  createEngine,
} from "lib";
import type { Engine, PooledConnection } from "lib";
import { DuckDBDriver } from "../../runtime/dialects/duckdb/duckdb-driver.js";
import { FaultInjectingDriver, cSettings, plainEngine } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";
import { seedDatabaseFile } from "../service/support/service-harness.js";
import { SALES_ROWS, SALES_TOTALS } from "../support/sales-fixture.js";

class Sales extends SemanticView("sales", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("reliability: the pool (issue 9.4, 9.5, 9.8, 9.12, 9.14)", function () {
  this.timeout(20_000);
  const tmp = useTempDir();

  describe("execute({ timeoutMs, signal }) covers the wait for a pooled connection (9.4)", () => {
    async function busyEngine(): Promise<{ engine: Engine; held: PooledConnection }> {
      const database = tmp.file("sales.duckdb");
      await seedDatabaseFile(database, SALES_ROWS);
      // A 30 s pool timeout: only the query's own bounds can end the wait early.
      const engine = createEngine(new BackendCConfig({ database, poolSize: 1, maxOverflow: 0, timeout: 30 }));
      return { engine, held: await engine.connect() };
    }

    it("timeoutMs ends the wait with QueryCancelledError('timeout') and leaves the queue", async () => {
      const { engine, held } = await busyEngine();
      await using _ = engine;
      const error = await failure(Sales.query().metrics(Sales.revenue).using(engine).execute({ timeoutMs: 300 }));
      expect(error).to.be.instanceOf(QueryCancelledError);
      expect((error as QueryCancelledError).reason).to.equal("timeout");
      expect(engine._pool.pending).to.equal(0);
      await held.release();
      expect(engine._pool.available, "the returned connection went idle, not to a departed waiter").to.equal(1);
      await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute({ timeoutMs: 5_000 });
      expect(await cursor.fetchAllRows()).to.deep.equal([{ revenue: SALES_TOTALS.revenue }]);
    });

    it("an AbortSignal ends the wait with QueryCancelledError('aborted'); so does engine.connect({ signal })", async () => {
      const { engine, held } = await busyEngine();
      await using _ = engine;
      const controller = new AbortController();
      const pending = failure(
        Sales.query().metrics(Sales.revenue).using(engine).execute({ signal: controller.signal }),
      );
      const raw = failure(engine.connect({ signal: controller.signal }));
      expect(engine._pool.pending).to.equal(2);
      controller.abort();
      for (const error of [await pending, await raw]) {
        expect(error).to.be.instanceOf(QueryCancelledError);
        expect((error as QueryCancelledError).reason).to.equal("aborted");
      }
      expect(engine._pool.pending).to.equal(0);
      await held.release();
      expect(engine._pool.opened).to.equal(1);
    });
  });

  describe("timeout as in SQLAlchemy (9.14)", () => {
    it("bounds only the wait for a busy pool: a 1.2 s open with timeout = 1 succeeds, a busy pool still times out", async () => {
      const driver = new SlowOpeningDriver(
        new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
        1_200,
      );
      await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 0, timeout: 1 }, { driver });
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      expect(await failure(engine.connect())).to.be.instanceOf(PoolTimeoutError);
    });

    it("timeout = 0 fails at once only when no connection is free: every fresh engine's first checkout works", async () => {
      for (let i = 0; i < 3; i++) {
        await using engine = plainEngine({
          database: tmp.file(`zero-${i}.duckdb`),
          poolSize: 1,
          maxOverflow: 0,
          timeout: 0,
        });
        await using conn = await engine.connect();
        expect(await failure(engine.connect())).to.be.instanceOf(PoolTimeoutError);
        expect(engine._pool.pending).to.equal(0);
      }
    });
  });

  it("failed pre-pings back off like failed opens: connections opened per second stay bounded (9.5)", async () => {
    const driver = new FaultInjectingDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
    );
    driver.ping = "false";
    await using engine = plainEngine(
      { database: tmp.file(), poolSize: 1, maxOverflow: 0, prePing: true, timeout: 1 },
      { driver },
    );
    const until = Date.now() + 1_000;
    let failures = 0;
    while (Date.now() < until) {
      await engine.connect().then(
        (c) => c.release(),
        () => failures++,
      );
    }
    expect(failures).to.be.greaterThan(0);
    // Backoff 50 ms, doubling to 2 s: about five opens in the first second (hundreds without it).
    expect(driver.openAttempts).to.be.within(2, 12);
  });

  it("after an outage, connections whose waiters left never stay idle beyond pool_size (9.12)", async () => {
    const driver = new SlowOpeningDriver(
      new DuckDBDriver(cSettings({ database: tmp.file() }), { semanticLayer: null }),
      0,
    );
    await using engine = plainEngine({ database: tmp.file(), poolSize: 1, maxOverflow: 3 }, { driver });
    const held = await engine.connect();
    // The warehouse is slow to accept logins: three callers give up while their connections open.
    driver.delayMs = 300;
    const controller = new AbortController();
    const waits = [0, 1, 2].map(() => failure(engine.connect({ signal: controller.signal })));
    controller.abort();
    for (const error of await Promise.all(waits)) expect(error).to.be.instanceOf(QueryCancelledError);
    await held.release();
    await driver.allOpened();
    await new Promise((resolve) => setImmediate(resolve));
    await engine._pool.settled();
    expect(driver.opened).to.equal(4);
    expect(engine._pool.available).to.equal(1);
    expect(engine._pool.size).to.equal(1);
  });

  describe("out-of-range timers are a ValidationError naming the field (9.8)", () => {
    it("config: timeout, recycle, dispose_timeout and durations beyond Node's 2^31 - 1 ms timer limit", () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ timeout: 2_147_484 }, "timeout"],
        [{ recycle: 2_147_484 }, "recycle"],
        [{ disposeTimeout: 2_147_484 }, "disposeTimeout"],
      ];
      for (const [input, field] of cases) {
        const error = (() => {
          try {
            new BackendCConfig({ database: ":memory:", ...input } as never, { env: {} });
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(error, field).to.be.instanceOf(ValidationError);
        expect((error as ValidationError).message).to.contain(field);
      }
      expect(() => new BackendCConfig({ database: ":memory:", timeout: 2_147_483 }, { env: {} })).not.to.throw();
      expect(() => new BackendAConfig({ account: "acme", loginTimeout: "1000h" }, { env: {} })).to.throw(
        ValidationError,
        /login_timeout|loginTimeout/,
      );
      expect(() => new BackendAConfig({ account: "acme", loginTimeout: "596h31m23s" }, { env: {} })).not.to.throw();
    });

    it("options: timeoutMs of 2^31 ms or more is rejected before anything runs", async () => {
      await using engine = plainEngine({ database: tmp.file(), poolSize: 1 });
      for (const timeoutMs of [2 ** 31, 1e12]) {
        const error = await failure(engine.connect({ timeoutMs }));
        expect(error).to.be.instanceOf(ValidationError);
        expect((error as ValidationError).field).to.equal("timeoutMs");
      }
      expect(engine._pool.opened).to.equal(0);
    });
  });
});

/** A real driver whose opens take `delayMs` (a slow login), counting the opens that finished. */
class SlowOpeningDriver extends FaultInjectingDriver {
  delayMs: number;
  opened = 0;
  #inFlight = new Set<Promise<unknown>>();

  constructor(inner: DuckDBDriver, delayMs: number) {
    super(inner);
    this.delayMs = delayMs;
  }

  override openConnection(): ReturnType<FaultInjectingDriver["openConnection"]> {
    const opening = (async () => {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const connection = await super.openConnection();
      this.opened++;
      return connection;
    })();
    this.#inFlight.add(opening);
    void opening.finally(() => this.#inFlight.delete(opening)).catch(() => undefined);
    return opening;
  }

  /** Resolves once every open started so far has finished. */
  async allOpened(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}
