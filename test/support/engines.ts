/** Shared helpers for the engine tests: backend C settings, plain engines, a fault-injecting driver. */
import { BackendCConfig } from "lib";
import type { BackendCConfigInput, Engine, PooledConnection } from "lib";
import type { BackendCSettings } from "lib/config";
import type { DatabaseConnection } from "../../runtime/driver/database-connection.js";
import type { Driver } from "../../runtime/driver/driver.js";
import type { QueryResult, ResultStream } from "../../runtime/driver/query-result.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import type { EngineFromSettingsOptions } from "../../runtime/engine/create-engine.js";
import { isRegistered } from "../../runtime/engine/registry.js";

export { getEngine } from "lib";

export function isRegisteredForTest(name: string): boolean {
  return isRegistered(name);
}

/** Validated backend C settings from a config object, ignoring the process environment. */
export function cSettings(input: BackendCConfigInput = {}): BackendCSettings {
  return new BackendCConfig(input, { env: {} }).settings;
}

/** An engine over plain DuckDB (no semantic layer), tracked for disposal after the test. */
export function plainEngine(input: BackendCConfigInput = {}, options: EngineFromSettingsOptions = {}): Engine {
  return engineFromSettings(cSettings(input), { driverOptions: { semanticLayer: null }, ...options });
}

/**
 * Mocha hooks: before each test, a plain engine (pool 2, no overflow) over a new database file in `dir`
 * holding the committed empty table `t (x INTEGER)`; disposed after each. Read `.engine` inside tests.
 */
export function useEngineWithTable(dir: { file(name?: string): string }): { readonly engine: Engine } {
  let current: Engine | undefined;
  beforeEach(async () => {
    current = plainEngine({ database: dir.file(), poolSize: 2, maxOverflow: 0 });
    await using setup = await current.connect();
    await setup.run("CREATE TABLE t (x INTEGER)");
    await setup.commit();
  });
  afterEach(async () => {
    const engine = current;
    current = undefined;
    await engine?.dispose();
  });
  return {
    get engine(): Engine {
      if (current === undefined) throw new Error("useEngineWithTable(): the engine exists only inside a test");
      return current;
    },
  };
}

/**
 * Mocha hooks for a describe block: one engine with the built-in semantic layer (pool 2, no
 * overflow) over a new database file in `dir`, seeded once by `seed` (committed after it), and one
 * connection held for the block's tests; both disposed after them. Read the fields inside tests.
 */
export function useSeededConnection(
  dir: { file(name?: string): string },
  seed: (setup: PooledConnection) => Promise<void>,
): { readonly engine: Engine; readonly conn: PooledConnection } {
  let engine: Engine | undefined;
  let conn: PooledConnection | undefined;
  before(async () => {
    engine = engineFromSettings(cSettings({ database: dir.file(), poolSize: 2, maxOverflow: 0 }));
    {
      await using setup = await engine.connect();
      await seed(setup);
      await setup.commit();
    }
    conn = await engine.connect();
  });
  after(async () => {
    await conn?.release();
    await engine?.dispose();
    conn = undefined;
    engine = undefined;
  });
  const outside = (): never => {
    throw new Error("useSeededConnection(): the engine exists only inside the block's tests");
  };
  return {
    get engine(): Engine {
      return engine ?? outside();
    },
    get conn(): PooledConnection {
      return conn ?? outside();
    },
  };
}

/**
 * Wraps a real driver and injects failures: failing opens, dead pings, throwing pings. Used to
 * exercise the pool's guards against conditions a healthy in-process DuckDB never produces.
 */
export class FaultInjectingDriver implements Driver {
  readonly inner: Driver;
  /** Opens still to fail (counted down), or Infinity. */
  failOpens = 0;
  openAttempts = 0;
  /** How ping() behaves. */
  ping: "ok" | "false" | "throw" = "ok";
  /** Pings still to throw (counted down) before `ping` applies. */
  throwingPings = 0;
  readonly connections: DatabaseConnection[] = [];

  constructor(inner: Driver) {
    this.inner = inner;
  }

  async openConnection(): Promise<DatabaseConnection> {
    this.openAttempts++;
    if (this.failOpens > 0) {
      this.failOpens--;
      throw new Error("IO Error: injected open failure");
    }
    const wrapped = new FaultyConnection(await this.inner.openConnection(), this);
    this.connections.push(wrapped);
    return wrapped;
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Delegates to a real connection; only ping() obeys the driver's injected behaviour. */
class FaultyConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #driver: FaultInjectingDriver;
  constructor(inner: DatabaseConnection, driver: FaultInjectingDriver) {
    this.#inner = inner;
    this.#driver = driver;
  }
  get createdAt(): number {
    return this.#inner.createdAt;
  }
  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    return this.#inner.execute(sql, parameters);
  }
  stream(sql: string, parameters?: readonly unknown[]): Promise<ResultStream> {
    return this.#inner.stream(sql, parameters);
  }
  interrupt(): void {
    this.#inner.interrupt();
  }
  async ping(): Promise<boolean> {
    if (this.#driver.throwingPings > 0) {
      this.#driver.throwingPings--;
      throw new Error("injected ping failure");
    }
    if (this.#driver.ping === "throw") throw new Error("injected ping failure");
    if (this.#driver.ping === "false") return false;
    return this.#inner.ping();
  }
  commit(): Promise<void> {
    return this.#inner.commit();
  }
  rollback(): Promise<void> {
    return this.#inner.rollback();
  }
  reset(): Promise<void> {
    return this.#inner.reset();
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
}
