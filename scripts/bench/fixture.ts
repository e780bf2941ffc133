/**
 * The benchmark database: a file-backed DuckDB in a fresh temp directory, holding `sales_data`
 * (rows drawn from a seeded PRNG, so every run has the same data) and the `sales` semantic view
 * (SPEC.md's dimensions and metrics, plus row-level facts), created through the library (`engine.connect()`). The library's engine and the raw driver share
 * one `DuckDBInstance` (the library's own per-file instance sharing), so both read the same data
 * through the same buffer cache. `close()` disposes everything and removes the directory.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { BackendCConfig, createEngine, unregister, type Engine } from "lib";
import { leaseFileInstance, type InstanceLease } from "../../runtime/dialects/duckdb/duckdb-instances.js";
import { mulberry32 as prng } from "../prng.js";

export { prng };

/** Must equal the options the backend C driver opens files with, or the instance cannot be shared. */
const DRIVER_INSTANCE_OPTIONS = { autoinstall_known_extensions: "false" };

export const SALES_VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (sales_data)
  FACTS (sales_data.sale_id AS id, sales_data.unit_revenue AS revenue, sales_data.amount AS amount, sales_data.sold_on AS sold_on)
  DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
  METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))`;

const COUNTRIES = [
  "US",
  "DE",
  "FR",
  "JP",
  "GB",
  "IT",
  "ES",
  "NL",
  "SE",
  "PL",
  "BR",
  "MX",
  "CA",
  "AU",
  "IN",
  "CN",
  "KR",
  "ZA",
  "NG",
  "EG",
  "AR",
  "CL",
  "NO",
  "FI",
];

export interface BenchFixture {
  readonly file: string;
  readonly rows: number;
  /** Registered as "default" (unless opened with `register: false`), pool of 2 (the machine has 2 cores). */
  readonly engine: Engine;
  /** The shared DuckDB instance (for raw connect-per-call). */
  readonly instance: DuckDBInstance;
  /** One raw driver connection, reused (autocommit, as a raw driver user would run it). */
  readonly raw: DuckDBConnection;
  /** Seconds spent generating and loading the data. */
  readonly seedSeconds: number;
  close(): Promise<void>;
}

async function generate(raw: DuckDBConnection, rows: number): Promise<void> {
  await raw.run(
    `CREATE TABLE sales_staging (id BIGINT, country VARCHAR, region VARCHAR, revenue INTEGER, cost INTEGER, amount_cents INTEGER, day INTEGER)`,
  );
  const random = prng(20_260_101);
  const appender = await raw.createAppender("sales_staging");
  try {
    for (let i = 0; i < rows; i++) {
      // Skewed country mix: low indexes are far more frequent (squared uniform).
      const u = random();
      const country = COUNTRIES[Math.floor(u * u * COUNTRIES.length)]!;
      const revenue = 1 + Math.floor(random() * 1000);
      appender.appendBigInt(BigInt(i + 1));
      appender.appendVarchar(country);
      appender.appendVarchar(`${country}-${1 + Math.floor(random() * 4)}`);
      appender.appendInteger(revenue);
      appender.appendInteger(Math.floor(revenue * (0.3 + random() * 0.6)));
      appender.appendInteger(Math.floor(random() * 10_000_000));
      appender.appendInteger(Math.floor(random() * 730));
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  await raw.run(
    `CREATE TABLE sales_data AS
       SELECT id, country, region, revenue, cost, (amount_cents / 100)::DECIMAL(12, 2) AS amount, DATE '2024-01-01' + day AS sold_on
       FROM sales_staging ORDER BY id`,
  );
  await raw.run("DROP TABLE sales_staging");
  await raw.run("CHECKPOINT");
}

/** `register: false` leaves the engine unregistered (a second fixture beside the one registered as "default"). */
export async function openFixture(rows: number, options: { readonly register?: boolean } = {}): Promise<BenchFixture> {
  const dir = await mkdtemp(join(tmpdir(), "lib-bench-"));
  const file = join(dir, "bench.duckdb");
  let lease: InstanceLease | undefined;
  let raw: DuckDBConnection | undefined;
  let engine: Engine | undefined;
  const close = async () => {
    if (engine !== undefined) {
      if (engine.name === "default") unregister("default");
      await engine.dispose();
    }
    raw?.closeSync();
    lease?.release();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    lease = leaseFileInstance(file, DRIVER_INSTANCE_OPTIONS);
    const instance = await lease.instance;
    raw = await instance.connect();
    const t0 = Date.now();
    await generate(raw, rows);
    const seedSeconds = (Date.now() - t0) / 1000;
    engine = createEngine(new BackendCConfig({ database: file, poolSize: 2 }), { register: options.register ?? true });
    {
      await using conn = await engine.connect();
      await conn.run("INSTALL semantic_views");
      await conn.run("LOAD semantic_views");
      await conn.run(SALES_VIEW_DDL);
      await conn.run("COMMIT");
    }
    return { file, rows, engine, instance, raw, seedSeconds, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
