/** Shared pieces of the spec-*.test.ts acceptance files. */
import { join } from "node:path";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, getEngine } from "lib";
import type { Engine } from "lib";
import { seedSales } from "../../support/sales-engine.js";
import { SALES_BY_COUNTRY, SALES_VIEW_DDL, salesTableSql } from "../../support/sales-fixture.js";

// ---------------------------------------------------------------------------------------------
// Shared pieces: the SPEC's `Sales` view as API.md declares it, engines over the one sales fixture, directories.
// ---------------------------------------------------------------------------------------------

/** SPEC "Example semantic view Sales", declared as API.md shows. */
export class Sales extends SemanticView("sales", {
  revenue: Metric(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

/** The SPEC example's answer over the one sales fixture (`test/support/sales-fixture.ts`): revenue per country, descending. */
export const BY_COUNTRY = SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue }));

export const UNAVAILABLE_BODY = '{"detail":"Data warehouse is unavailable"}';

/** A seeded in-memory engine that is not registered (the service's lifespan registers it). */
export function unregisteredSalesEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", seedSales);
  return engine;
}

/** Runs `body` with `dir` as the working directory (restored afterwards). */
export async function inDirectory<T>(dir: string, body: () => T | Promise<T>): Promise<T> {
  const previous = process.cwd();
  process.chdir(dir);
  try {
    return await body();
  } finally {
    process.chdir(previous);
  }
}

/** Lets wall-clock time pass (for recycle ages); nothing asserts on durations. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A DuckDB file with `sales_data` and the `sales` view, committed. */
export async function seededFile(dir: string, name = "sales.duckdb"): Promise<string> {
  const database = join(dir, name);
  await using engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
  await using conn = await engine.connect();
  for (const statement of [...salesTableSql(), SALES_VIEW_DDL]) await conn.run(statement);
  await conn.commit();
  return database;
}

export const revenueQuery = (country?: string) =>
  Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(country ? Sales.country.eq(country) : null)
    .orderBy(Sales.revenue.desc());

export const ENV_KEYS = [
  "BACKEND_A_PASSWORD",
  "BACKEND_B_TOKEN",
  "BACKEND_C_DATABASE",
  "SCHEMA",
  "BACKEND_A_SCHEMA",
  "BACKEND_C_POOL_SIZE",
];

export function isRegistered(name: string): boolean {
  try {
    getEngine(name);
    return true;
  } catch {
    return false;
  }
}
