/**
 * The star schema the expansion benches join (regions ← customers ← orders → products), seeded the
 * same way in each so their tables answer alike: `<prefix>_regions` (20), `<prefix>_customers`
 * (100,000, about 1 % without a region), `<prefix>_products` (5,000) and `<prefix>_orders` (`orders`
 * rows, about 1 % without a customer), values drawn from `hash(i)` so every run has the same data.
 */

/** An extra `<prefix>_orders` column: `{ name, sql }`, `sql` an expression of the row number `i`. */
export interface OrderColumn {
  readonly name: string;
  readonly sql: string;
}

/** The statements creating the four tables; `extra` columns follow the order's own. */
export function starSchemaSql(prefix: string, orders: number, extra: readonly OrderColumn[] = []): string[] {
  const columns = [
    "i AS id",
    "CASE WHEN i % 101 = 0 THEN NULL ELSE 1 + (hash(i) % 100000)::INTEGER END AS customer_id",
    "1 + (hash(i * 7) % 5000)::INTEGER AS product_id",
    "((hash(i * 17) % 100000) / 100.0)::DECIMAL(12,2) AS amount",
    "['open','done','void'][1 + (i % 3)] AS status",
    ...extra.map((c) => `${c.sql} AS ${c.name}`),
  ];
  return [
    `CREATE TABLE ${prefix}_regions AS SELECT i AS id, 'region_' || i AS name FROM range(1, 21) t(i)`,
    `CREATE TABLE ${prefix}_customers AS SELECT i AS id, ['A','B','C','D'][1 + (i % 4)] AS segment,
       CASE WHEN i % 97 = 0 THEN NULL ELSE 1 + (i % 20) END AS region_id FROM range(1, 100001) t(i)`,
    `CREATE TABLE ${prefix}_products AS SELECT i AS id, 'cat_' || (i % 25) AS category FROM range(1, 5001) t(i)`,
    `CREATE TABLE ${prefix}_orders AS SELECT ${columns.join(", ")} FROM range(1, ${orders + 1}) t(i)`,
  ];
}
