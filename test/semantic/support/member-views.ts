/** The views behind the SHOW SEMANTIC DIMENSIONS / METRICS / FACTS docs tests. */
import { runStatement } from "./statement-rows.js";
import type { DocsRunner } from "./docs-runner.js";

export const MEMBER_COLUMNS = [
  "database_name",
  "schema_name",
  "semantic_view_name",
  "table_name",
  "name",
  "data_type",
  "synonyms",
  "comment",
];

/** `orders_sv` (the docs' dimensions example), `profit_analysis` (derived metrics) and `other."schema"`. */
export async function createMemberViews(runner: DocsRunner): Promise<void> {
  await runner.run("CREATE TABLE customers (id INTEGER, name VARCHAR, region VARCHAR)");
  await runner.run("CREATE TABLE orders (id INTEGER, customer_id INTEGER, order_date DATE, amount DOUBLE)");
  await runStatement(
    runner,
    `CREATE SEMANTIC VIEW orders_sv AS
      TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
      RELATIONSHIPS (oc AS o(customer_id) REFERENCES c)
      FACTS (o.net AS o.amount * 0.9 WITH SYNONYMS ('net amount'))
      DIMENSIONS (
        c.region AS c.region WITH SYNONYMS ('territory', 'sales_region'),
        o.order_date AS o.order_date COMMENT = 'day ordered',
        c.customer_name AS c.name)
      METRICS (o.total_amount AS SUM(o.amount), o.order_count AS COUNT(*))`,
  );
  await runStatement(
    runner,
    `CREATE SEMANTIC VIEW profit_analysis AS TABLES (li AS orders)
      METRICS (li.revenue AS SUM(li.amount), li.cost AS SUM(li.amount) * 0.5, profit AS revenue - cost, margin AS profit / revenue)`,
  );
  await runner.run("CREATE SCHEMA other");
  await runStatement(
    runner,
    `CREATE SEMANTIC VIEW other."schema" AS TABLES (o AS main.orders) DIMENSIONS (o.region_code AS o.id)`,
  );
}

/** `view.member` for each row of a SHOW SEMANTIC DIMENSIONS | METRICS | FACTS statement. */
export async function memberNames(runner: DocsRunner, sql: string): Promise<string[]> {
  return (await runStatement(runner, sql)).rows.map((r) => `${r[2]}.${r[4]}`);
}
