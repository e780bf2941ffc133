/**
 * SPEC.md "Test-support engine" (`sales_engine`): a backend C engine on `:memory:` with
 * `pool_size = 1`, registered as "default" for one test. A `connect` listener on
 * `engine._pool` seeds every new connection: INSTALL/LOAD semantic_views, the `sales_data`
 * table, its rows, the `sales` semantic view, then COMMIT (connections run with autocommit off).
 * Leaving the scope unregisters "default", then disposes the engine.
 *
 * The rows and expected answers are the one sales fixture's (`sales-fixture.ts`). The one helper for
 * every backend C engine over sales data: other rows, the `orders` view or another registered name
 * are options of `createSalesEngine`.
 *
 * Use it as mocha hooks (`const sales = useSalesEngine();` then `sales.engine` inside tests), around
 * one test body (`await withSalesEngine(async (engine) => { ... })`), or with `await using`
 * (`dispose()` unregisters, then closes the pool).
 */
import { BackendCConfig, createEngine, register, unregister } from "lib";
import type { Engine } from "lib";
import {
  ORDERS_VIEW_DDL,
  SALES_VIEW_DDL,
  ordersTableSql,
  salesTableDdl,
  salesTableSql,
  type SalesRow,
} from "./sales-fixture.js";

interface SeededConnection {
  run(sql: string, parameters?: readonly unknown[]): Promise<void>;
}

export interface SalesSeed {
  /** `sales_data` rows other than the fixture's, bound as parameters (so any text works). */
  readonly rows?: readonly SalesRow[];
  /** Also create `orders_data` and the `orders` semantic view. */
  readonly orders?: boolean;
}

/** A `connect` listener seeding one new connection (the SPEC's listener steps, in order). */
export function salesSeeder(seed: SalesSeed = {}): (conn: SeededConnection) => Promise<void> {
  return async (conn) => {
    await conn.run("INSTALL semantic_views");
    await conn.run("LOAD semantic_views");
    if (seed.rows === undefined) for (const statement of salesTableSql()) await conn.run(statement);
    else {
      await conn.run(salesTableDdl());
      for (const row of seed.rows) {
        await conn.run("INSERT INTO sales_data VALUES (?, ?, ?, ?)", [row.revenue, row.cost, row.country, row.region]);
      }
    }
    await conn.run(SALES_VIEW_DDL);
    if (seed.orders === true) for (const statement of [...ordersTableSql(), ORDERS_VIEW_DDL]) await conn.run(statement);
    await conn.run("COMMIT");
  };
}

/** The SPEC's `connect` listener: the one sales fixture's rows and the `sales` view. */
export const seedSales: (conn: SeededConnection) => Promise<void> = salesSeeder();

export interface SalesEngineOptions extends SalesSeed {
  /** The registry name (default "default"); "" leaves the engine unregistered. */
  readonly name?: string;
}

/** Creates the fixture engine, registered as "default" unless told otherwise. Prefer `withSalesEngine`/`useSalesEngine`. */
export function createSalesEngine(options: SalesEngineOptions = {}): Engine {
  const { name = "default", ...seed } = options;
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", salesSeeder(seed));
  if (name !== "") register(name, engine);
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
