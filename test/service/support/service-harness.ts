/**
 * Fixtures of the example-service tests: temporary DuckDB files seeded through `lib`'s own engine,
 * an app server on an ephemeral port, and a logger that records what the service logged.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Express } from "express";
import { BackendCConfig, createEngine, type Engine } from "lib";
import type { Logger } from "../../../example-service/logger.js";
import { describeError } from "../../../example-service/logger.js";
import { SALES_BY_COUNTRY, SALES_ROWS, SALES_VIEW_DDL } from "../../support/sales-fixture.js";

export interface SaleRow {
  readonly country: string;
  readonly region: string | null;
  readonly revenue: number | bigint;
  readonly cost?: number | bigint;
}

/** `/revenue`'s answer over the one sales fixture (`test/support/sales-fixture.ts`), as JSON numbers. */
export const EXPECTED_REVENUE = SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue: Number(revenue) }));

const sqlString = (v: string | null): string => (v === null ? "NULL" : `'${v.replaceAll("'", "''")}'`);

export interface SeedOptions {
  /** Column type of revenue and cost (SPEC: INTEGER; BIGINT for values above 2^31). */
  readonly integerType?: "INTEGER" | "BIGINT";
  /** Replaces the `sales` view definition (for schema-drift tests). */
  readonly viewDdl?: string;
}

/** Statements that create `sales_data`, fill it and define the `sales` view. */
export function seedStatements(rows: readonly SaleRow[], options: SeedOptions = {}): string[] {
  const type = options.integerType ?? "INTEGER";
  const values = rows
    .map((r) => `(${BigInt(r.revenue)}, ${BigInt(r.cost ?? 0)}, ${sqlString(r.country)}, ${sqlString(r.region)})`)
    .join(", ");
  return [
    `CREATE TABLE sales_data (revenue ${type}, cost ${type}, country VARCHAR, region VARCHAR)`,
    `INSERT INTO sales_data VALUES ${values}`,
    options.viewDdl ?? SALES_VIEW_DDL,
  ];
}

/** Creates a DuckDB file with `sales_data` and the `sales` view, committed, through lib's engine. */
export async function seedDatabaseFile(
  path: string,
  rows: readonly SaleRow[],
  options: SeedOptions = {},
): Promise<void> {
  await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
  await using conn = await engine.connect();
  for (const statement of seedStatements(rows, options)) await conn.run(statement);
  await conn.commit();
}

/** A file-backed engine over a freshly seeded database in `dir`. The caller disposes it. */
export async function seededEngine(
  dir: string,
  rows: readonly SaleRow[] = SALES_ROWS,
  options: SeedOptions = {},
): Promise<Engine> {
  const database = join(dir, `sales-${Math.random().toString(36).slice(2)}.duckdb`);
  await seedDatabaseFile(database, rows, options);
  return createEngine(new BackendCConfig({ database, poolSize: 2 }));
}

/** What the test-only `engine._pool` offers (API.md: private, for test suites). */
export interface TestPool {
  on(event: "connect", listener: (conn: { run(sql: string): Promise<void> }) => unknown): void;
}
export function poolOf(engine: Engine): TestPool {
  return (engine as unknown as { _pool: TestPool })._pool;
}

export interface RunningApp extends AsyncDisposable {
  readonly url: string;
  readonly server: Server;
}

/** Serves `app` on 127.0.0.1 with an ephemeral port. */
export async function listen(app: Express): Promise<RunningApp> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A Logger that keeps every line, for asserting what was (and was not) logged. */
export function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => void lines.push(message),
    error: (message, error) => void lines.push(error === undefined ? message : `${message}: ${describeError(error)}`),
  };
}
