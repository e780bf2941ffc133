/**
 * Backend C engines over the one sales fixture, or over other `sales_data` rows a test needs (bound
 * as parameters, so any text works), seeded the SPEC way: pool_size 1, `:memory:`, a `connect`
 * listener that loads semantic_views, creates and fills the tables, creates the views and commits.
 */
import { BackendCConfig, createEngine, register, type Engine } from "lib";
import {
  ORDERS_VIEW_DDL,
  SALES_ROWS,
  SALES_VIEW_DDL,
  ordersTableSql,
  salesTableDdl,
  type SalesRow,
} from "./sales-fixture.js";

/** Registered as `name` unless it is "" (dispose() unregisters it). */
export function salesEngine(rows: readonly SalesRow[] = SALES_ROWS, name = "default"): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", async (conn) => {
    await conn.run("INSTALL semantic_views; LOAD semantic_views;");
    await conn.run(salesTableDdl());
    for (const row of rows) {
      await conn.run("INSERT INTO sales_data VALUES (?, ?, ?, ?)", [row.revenue, row.cost, row.country, row.region]);
    }
    for (const statement of [SALES_VIEW_DDL, ...ordersTableSql(), ORDERS_VIEW_DDL]) await conn.run(statement);
    await conn.commit();
  });
  if (name !== "") register(name, engine);
  return engine; // `await using`: dispose() unregisters, then closes the pool
}
