/** A backend C engine with a result cache over a small `orders` table, and a log of its events. */
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine, type LogEvent } from "lib";
import type { BackendCConfigInput } from "lib";

export class Orders extends SemanticView("orders_v", {
  country: Dimension<string>(),
  revenue: Metric<bigint>(),
  boom: Metric<bigint>(),
}) {}

/** One metric over 20 M generated rows: a statement that runs long enough to be cancelled. */
export class Slow extends SemanticView("slow_v", { slow: Metric<bigint>() }) {}

export const byCountry = Orders.query().dimensions(Orders.country).metrics(Orders.revenue).orderBy(Orders.country);

export interface CachedEngine {
  readonly engine: Engine;
  readonly events: LogEvent[];
  /** Statements the warehouse ran for semantic queries (query events not served by the cache). */
  statements(): number;
  /** Query events the cache served. */
  served(): number;
  /** Checkouts from the pool. */
  checkouts(): number;
}

export const ORDERS_DDL = [
  "CREATE TABLE orders (country VARCHAR, amount INTEGER)",
  "INSERT INTO orders VALUES ('DE', 120), ('US', 80), ('DE', 30)",
  // A view, not a table: every read recomputes 5 M rows, so a statement runs long enough to cancel.
  "CREATE VIEW big AS SELECT range AS n FROM range(5000000)",
  `CREATE SEMANTIC VIEW orders_v AS
    TABLES (orders)
    DIMENSIONS (orders.country AS country)
    METRICS (orders.revenue AS SUM(amount), orders.boom AS MAX(error('boom: ' || country)))`,
  "CREATE SEMANTIC VIEW slow_v AS TABLES (big) METRICS (big.slow AS SUM(hash(n) % 7))",
];

/** A fresh in-memory engine with `cache` settings, its `orders` table and `orders_v` view committed. */
export async function cachedEngine(cache: BackendCConfigInput["cache"] | null = {}): Promise<CachedEngine> {
  const events: LogEvent[] = [];
  const engine = createEngine(new BackendCConfig({ database: ":memory:", cache: cache ?? undefined }, { env: {} }), {
    log: (event) => events.push(event),
  });
  {
    await using conn = await engine.connect();
    for (const statement of ORDERS_DDL) await conn.run(statement);
    await conn.commit();
  }
  events.length = 0;
  const semantic = (e: LogEvent) => e.type === "query" && e.sql.includes("semantic_view(");
  return {
    engine,
    events,
    statements: () =>
      events.filter(
        (e) =>
          (semantic(e) && e.type === "query" && e.servedFrom !== "cache") ||
          (e.type === "query-error" && e.sql.includes("semantic_view(")),
      ).length,
    served: () => events.filter((e) => e.type === "query" && e.servedFrom === "cache").length,
    checkouts: () => events.filter((e) => e.type === "pool-wait").length,
  };
}
