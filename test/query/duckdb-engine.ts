/**
 * A backend C engine seeded the SPEC way (pool_size 1, `:memory:`, a `connect` listener that loads
 * semantic_views, creates and fills the tables, creates the views and commits), registered as
 * "default" for one test. `rows` are the sales_data rows; the orders view has one member of each
 * value type.
 */
import { BackendCConfig, createEngine, register, type Engine } from "lib";

export type SalesRow = readonly [revenue: number, cost: number, country: string, region: string | null];

export const SPEC_SALES: readonly SalesRow[] = [
  [100, 10, "US", "West"],
  [50, 5, "US", "East"],
  [70, 7, "DE", "EU"],
  [30, 3, "DE", "EU"],
  [40, 4, "FR", "EU"],
  [5, 1, "JP", null],
];

const ORDERS_SQL = `
  CREATE TABLE orders_data (id INTEGER, status VARCHAR, ordered_at TIMESTAMP, is_rush BOOLEAN, price DECIMAL(10,2), quantity INTEGER);
  INSERT INTO orders_data VALUES
    (1, 'open',    TIMESTAMP '2024-01-01 08:00:00', TRUE,  19.99, 2),
    (2, 'open',    TIMESTAMP '2024-01-02 09:30:00', FALSE, 5.01,  1),
    (3, 'shipped', TIMESTAMP '2024-02-01 00:00:00', FALSE, 100.00, 10),
    (4, 'closed',  TIMESTAMP '2023-12-31 23:59:59.999', TRUE, 0.10, 3);
  CREATE OR REPLACE SEMANTIC VIEW orders AS
    TABLES (o AS orders_data PRIMARY KEY (id))
    FACTS (o.quantity AS quantity, o.price AS price)
    DIMENSIONS (o.status AS status, o.orderedAt AS ordered_at, o.isRush AS is_rush)
    METRICS (o.total AS SUM(price), o.orderCount AS COUNT(*), o.units AS SUM(quantity));
`;

/** Registered as `name` unless it is "" (dispose() unregisters it). */
export function salesEngine(rows: readonly SalesRow[] = SPEC_SALES, name = "default"): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", async (conn) => {
    await conn.run("INSTALL semantic_views; LOAD semantic_views;");
    await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
    for (const row of rows) await conn.run("INSERT INTO sales_data VALUES (?, ?, ?, ?)", row);
    await conn.run(
      "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (s AS sales_data) " +
        "DIMENSIONS (s.country AS country, s.region AS region) " +
        "METRICS (s.revenue AS SUM(revenue), s.cost AS SUM(cost))",
    );
    await conn.run(ORDERS_SQL);
    await conn.commit();
  });
  if (name !== "") register(name, engine);
  return engine; // `await using`: dispose() unregisters, then closes the pool
}
