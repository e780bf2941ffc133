/**
 * A backend C database of N semantic views over two tables, for the codegen benchmarks (`codegen-scale`
 * in `npm run bench`, and drift-check.ts). `changed` renames a metric and drops a dimension in every
 * view, so `lib codegen --check` against code generated from the unchanged file finds three model
 * changes per view.
 */
import { BackendCConfig, createEngine } from "lib";

export function codegenViewDdl(i: number, changed: boolean): string {
  const dimensions = ["o.region AS o.region", "o.channel AS o.channel", "li.status AS li.status"];
  if (!changed) dimensions.push("li.sku AS li.sku");
  const metrics = [`li.revenue AS SUM(li.price)`, `o.${changed ? "orders" : "order_count"} AS COUNT(*)`];
  return `CREATE SEMANTIC VIEW v${String(i).padStart(3, "0")} AS
    TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
    RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
    DIMENSIONS (${dimensions.join(", ")})
    METRICS (${metrics.join(", ")})`;
}

/** Creates the DuckDB file at `path` with `views` semantic views (built-in semantic layer). */
export async function createCodegenDatabase(path: string, views: number, changed = false): Promise<void> {
  await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
  await using conn = await engine.connect();
  await conn.run("CREATE TABLE orders (id INTEGER, region VARCHAR, channel VARCHAR)");
  await conn.run("CREATE TABLE line_items (id INTEGER, order_id INTEGER, price INTEGER, status VARCHAR, sku VARCHAR)");
  for (let i = 0; i < views; i++) await conn.run(codegenViewDdl(i, changed));
  await conn.commit();
}
