/**
 * SPEC.md "Test-support engine" (`sales_engine`): a backend C engine on `:memory:` with
 * `pool_size = 1`, registered as "default" for one test. A `connect` listener on
 * `engine._pool` seeds every new connection: INSTALL/LOAD semantic_views, the `sales_data`
 * table, its rows, the `sales` semantic view, then COMMIT (connections run with autocommit off).
 * Leaving the scope unregisters "default", then disposes the engine.
 *
 * Use it as mocha hooks (`const sales = useSalesEngine();` then `sales.engine` inside tests) or
 * around one test body (`await withSalesEngine(async (engine) => { ... })`).
 */
import { BackendCConfig, createEngine, unregister } from "lib";
import type { Engine } from "lib";

export interface SalesRow {
  readonly revenue: number;
  readonly cost: number;
  readonly country: string;
  readonly region: string;
}

/** The seeded rows: several share a country, so grouping by country sums them. */
export const SALES_ROWS: readonly SalesRow[] = Object.freeze([
  { revenue: 100, cost: 40, country: "US", region: "West" },
  { revenue: 250, cost: 90, country: "US", region: "East" },
  { revenue: 75, cost: 30, country: "US", region: "West" },
  { revenue: 300, cost: 120, country: "DE", region: "Berlin" },
  { revenue: 120, cost: 50, country: "DE", region: "Bavaria" },
  { revenue: 90, cost: 60, country: "FR", region: "Paris" },
  { revenue: 60, cost: 20, country: "JP", region: "Kanto" },
  { revenue: 40, cost: 35, country: "JP", region: "Kansai" },
]);

export interface SalesByCountry {
  readonly country: string;
  /** SUM(revenue): DuckDB sums INTEGER to HUGEINT, so rows carry it as a bigint. */
  readonly revenue: bigint;
  readonly cost: bigint;
}

/** Revenue and cost per country, ordered by revenue descending (the example query's answer). */
export const SALES_BY_COUNTRY: readonly SalesByCountry[] = Object.freeze(aggregateByCountry(SALES_ROWS));

/** Total revenue and cost over all rows. */
export const SALES_TOTALS = Object.freeze({
  revenue: SALES_ROWS.reduce((sum, row) => sum + BigInt(row.revenue), 0n),
  cost: SALES_ROWS.reduce((sum, row) => sum + BigInt(row.cost), 0n),
});

/** The DDL the listener runs for the view (same as the extension's grammar). */
export const SALES_VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (sales_data)
  DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
  METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))`;

function aggregateByCountry(rows: readonly SalesRow[]): SalesByCountry[] {
  const byCountry = new Map<string, { revenue: bigint; cost: bigint }>();
  for (const row of rows) {
    const total = byCountry.get(row.country) ?? { revenue: 0n, cost: 0n };
    total.revenue += BigInt(row.revenue);
    total.cost += BigInt(row.cost);
    byCountry.set(row.country, total);
  }
  return [...byCountry]
    .map(([country, total]) => Object.freeze({ country, ...total }))
    .sort((a, b) => (a.revenue === b.revenue ? a.country.localeCompare(b.country) : a.revenue > b.revenue ? -1 : 1));
}

/** Seeds one new connection (the SPEC's listener steps, in order). */
async function seed(conn: { run(sql: string, parameters?: readonly unknown[]): Promise<void> }): Promise<void> {
  await conn.run("INSTALL semantic_views");
  await conn.run("LOAD semantic_views");
  await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
  const values = SALES_ROWS.map(() => "(?, ?, ?, ?)").join(", ");
  await conn.run(
    `INSERT INTO sales_data VALUES ${values}`,
    SALES_ROWS.flatMap((row) => [row.revenue, row.cost, row.country, row.region]),
  );
  await conn.run(SALES_VIEW_DDL);
  await conn.run("COMMIT");
}

/** Creates the fixture engine, registered as "default". Prefer `withSalesEngine`/`useSalesEngine`. */
export function createSalesEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
  engine._pool.on("connect", seed);
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
