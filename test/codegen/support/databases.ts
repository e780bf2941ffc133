/**
 * Real DuckDB files with semantic views, created through the library's own engine (the built-in
 * semantic engine answers the DDL): the demo `sales` view, and an `orders` view with a comment,
 * money (DECIMAL), dates and a fact.
 */
import { join } from "node:path";
import { BackendCConfig, createEngine } from "lib";
import { tempDir } from "../../support/temp-dir.js";

export const ORDERS_DDL = [
  "CREATE TABLE order_lines (id INTEGER, amount DECIMAL(12,2), placed_on DATE, qty SMALLINT, channel VARCHAR, express BOOLEAN, price DOUBLE)",
  "INSERT INTO order_lines VALUES (1, 10.50, DATE '2026-01-02', 2, 'web', true, 5.25), (2, 3.10, DATE '2026-01-03', 1, 'shop', false, 3.10)",
  `CREATE SEMANTIC VIEW orders COMMENT = 'Order lines, one row per line' AS
    TABLES (o AS order_lines PRIMARY KEY (id))
    FACTS (o.unit_price AS o.price COMMENT = 'Price per unit')
    DIMENSIONS (o.channel AS o.channel COMMENT = 'Sales channel', o.placed_on AS o.placed_on, o.express AS o.express)
    METRICS (o.amount AS SUM(o.amount) COMMENT = 'Net amount in USD', o.lines AS COUNT(*), o.avg_qty AS AVG(o.qty))`,
];

export const SALES_DDL = [
  "CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)",
  "INSERT INTO sales_data VALUES (100, 60, 'US', 'NA'), (80, 50, 'DE', 'EU')",
  `CREATE SEMANTIC VIEW sales AS
    TABLES (sales_data)
    DIMENSIONS (sales_data.country AS sales_data.country, sales_data.region AS sales_data.region)
    METRICS (sales_data.revenue AS SUM(sales_data.revenue), sales_data.cost AS SUM(sales_data.cost))`,
];

/** Creates `<dir>/<file>` and runs the statements on it; returns the path. */
export async function createDatabase(dir: string, file: string, statements: readonly string[]): Promise<string> {
  const database = join(dir, file);
  await using engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
  await using conn = await engine.connect();
  for (const sql of statements) await conn.run(sql);
  // Pooled connections run inside a transaction; commit so other connections see the views.
  await conn.commit();
  return database;
}

/** A `.lib.toml` declaring one DTO of the sales view: `RevenueByCountry` (country, revenue). */
export const REVENUE_DTO_CONFIG = '[codegen.dtos.RevenueByCountry]\nview = "sales"\nfields = ["country", "revenue"]\n';

/**
 * Mocha hooks: a DuckDB file with the `sales` and `orders` views (`shop.duckdb` in a temporary
 * folder) for the whole `describe`, removed afterwards. `path` is readable inside its tests.
 */
export function useShopDatabase(): { readonly path: string } {
  let folder: Awaited<ReturnType<typeof tempDir>> | undefined;
  let database: string | undefined;
  before(async () => {
    folder = await tempDir();
    database = await createDatabase(folder.path, "shop.duckdb", [...SALES_DDL, ...ORDERS_DDL]);
  });
  after(async () => {
    await folder?.[Symbol.asyncDispose]();
    folder = database = undefined;
  });
  return {
    get path() {
      if (database === undefined) throw new Error("useShopDatabase(): the database exists only inside the describe");
      return database;
    },
  };
}
