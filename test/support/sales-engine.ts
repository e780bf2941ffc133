/**
 * SPEC.md "Test-support engine" (`sales_engine`): a backend C engine on `:memory:` with
 * `pool_size = 1`, registered as "default" for one test. A `connect` listener on
 * `engine._pool` seeds every new connection: INSTALL/LOAD semantic_views, the `sales_data`
 * table, its rows, the `sales` semantic view, then COMMIT (connections run with autocommit off).
 * Leaving the scope unregisters "default", then disposes the engine.
 *
 * The rows and expected answers are the one sales fixture's (`sales-fixture.ts`).
 *
 * Use it as mocha hooks (`const sales = useSalesEngine();` then `sales.engine` inside tests) or
 * around one test body (`await withSalesEngine(async (engine) => { ... })`).
 */
import { BackendCConfig, createEngine, unregister } from "lib";
import type { Engine } from "lib";
import { SALES_VIEW_DDL, salesTableSql } from "./sales-fixture.js";

/** Seeds one new connection (the SPEC's listener steps, in order): the `connect` listener. */
export async function seedSales(conn: {
  run(sql: string, parameters?: readonly unknown[]): Promise<void>;
}): Promise<void> {
  await conn.run("INSTALL semantic_views");
  await conn.run("LOAD semantic_views");
  for (const statement of salesTableSql()) await conn.run(statement);
  await conn.run(SALES_VIEW_DDL);
  await conn.run("COMMIT");
}

/** Creates the fixture engine, registered as "default". Prefer `withSalesEngine`/`useSalesEngine`. */
export function createSalesEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
  engine._pool.on("connect", seedSales);
  return engine;
}

/** Teardown in SPEC order: remove the "default" name, then dispose the pool. */
export async function closeSalesEngine(engine: Engine): Promise<void> {
  if (engine.name === "default") unregister("default");
  await engine.dispose();
}

/** Runs `fn` with the fixture engine; "default" is unregistered and the engine disposed afterwards, also on failure. */
export async function withSalesEngine<T>(fn: (engine: Engine) => Promise<T> | T): Promise<T> {
  const engine = createSalesEngine();
  try {
    return await fn(engine);
  } finally {
    await closeSalesEngine(engine);
  }
}

/** Mocha hooks: a fresh fixture engine per test (function-scoped, as SPEC.md says). */
export function useSalesEngine(): { readonly engine: Engine } {
  let current: Engine | undefined;
  beforeEach(() => {
    current = createSalesEngine();
  });
  afterEach(async () => {
    const engine = current;
    current = undefined;
    if (engine !== undefined) await closeSalesEngine(engine);
  });
  return {
    get engine(): Engine {
      if (current === undefined) throw new Error("useSalesEngine(): the engine exists only inside a test");
      return current;
    },
  };
}
