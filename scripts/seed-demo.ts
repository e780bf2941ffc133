/**
 * Creates and fills the example service's demo DuckDB database through `lib`'s own engine (raw-SQL
 * escape hatch), then defines the `sales` semantic view. Idempotent: an existing `sales_data`
 * table is kept as is; the view is (re)defined with CREATE OR REPLACE, which is a no-op in effect.
 *
 *   npx tsx scripts/seed-demo.ts [path]     (default: BACKEND_C_DATABASE or demo-data/demo.duckdb)
 *
 * Only the default path gets its missing directory created: a path someone gave must be in an
 * existing directory (a mistyped one fails instead of growing a tree).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BackendCConfig, createEngine } from "lib";
import { generateSalesRows, type SalesRow } from "./seed-demo-data.js";

/** The table behind the view: the schema SPEC.md gives for `sales_data`. Codegen reads it. */
export const SALES_TABLE_DDL =
  "CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)";

export const SALES_VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (sales_data)
  DIMENSIONS (sales_data.country AS sales_data.country, sales_data.region AS sales_data.region)
  METRICS (sales_data.revenue AS SUM(sales_data.revenue), sales_data.cost AS SUM(sales_data.cost))`;

export interface SeedResult {
  readonly database: string;
  /** True when this call created and filled `sales_data`. */
  readonly created: boolean;
  /** Rows in `sales_data` after the call. */
  readonly rows: number;
}

function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function sqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  return String(value);
}

/** Multi-row INSERTs of at most `chunk` rows, values written as escaped literals. */
export function insertStatements(rows: readonly SalesRow[], chunk = 1000): string[] {
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows
      .slice(i, i + chunk)
      .map((r) => `(${sqlInteger(r.revenue)}, ${sqlInteger(r.cost)}, ${sqlString(r.country)}, ${sqlString(r.region)})`);
    statements.push(`INSERT INTO sales_data (revenue, cost, country, region) VALUES ${values.join(", ")}`);
  }
  return statements;
}

/** The demo database when nothing names another, relative to the working directory. */
export const DEFAULT_DEMO_DATABASE = "demo-data/demo.duckdb";

export interface SeedOptions {
  /** Create the file's missing directories (for the default path only). Default false. */
  readonly createDirectory?: boolean;
}

export async function seedDemoDatabase(path: string, options: SeedOptions = {}): Promise<SeedResult> {
  const database = resolve(path);
  const directory = dirname(database);
  if (options.createDirectory === true) await mkdir(directory, { recursive: true });
  else if (!existsSync(directory)) {
    throw new Error(
      `the directory ${directory} does not exist: create it first (only the default ${DEFAULT_DEMO_DATABASE} gets its directory created)`,
    );
  }
  // Seeding is what creates the file.
  await using engine = createEngine(new BackendCConfig({ database, poolSize: 1, createIfMissing: true }));
  await using conn = await engine.connect();
  try {
    const [existing] = await conn.all(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'sales_data'",
    );
    const created = Number(existing?.n ?? 0) === 0;
    if (created) {
      await conn.run(SALES_TABLE_DDL);
      for (const statement of insertStatements(generateSalesRows())) await conn.run(statement);
    }
    await conn.run(SALES_VIEW_DDL);
    // Connections start a transaction; the view is resolved on committed state only.
    await conn.commit();
    const [count] = await conn.all("SELECT count(*) AS n FROM sales_data");
    return { database, created, rows: Number(count?.n ?? 0) };
  } catch (error) {
    await conn.rollback().catch(() => undefined);
    throw error;
  }
}

// Run as a script (not when imported). No top-level await: test runners may require() this module.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const given = process.argv[2] ?? (process.env.BACKEND_C_DATABASE || undefined);
  const target = given ?? DEFAULT_DEMO_DATABASE;
  seedDemoDatabase(target, { createDirectory: given === undefined }).then(
    (result) =>
      console.log(
        result.created
          ? `seeded ${result.database}: ${result.rows} sales rows, semantic view 'sales'`
          : `${result.database} already seeded (${result.rows} sales rows); semantic view 'sales' refreshed`,
      ),
    (error: unknown) => {
      console.error(
        `seeding ${target} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
      process.exitCode = 1;
    },
  );
}
