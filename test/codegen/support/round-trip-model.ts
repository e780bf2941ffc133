/**
 * One sales model written for each warehouse, for the `--fixture --sample all --record --verify`
 * round trips: orders (DECIMAL money, a BIGINT quantity with a value beyond 2^53, a DATE) → customers
 * → nations (a two-level join; on backends A and B the nations live in another database/catalog),
 * a semi-additive metric (the last day's revenue) and a derived one (revenue - cost). Expected
 * answers are computed by hand from the rows.
 */

export const NATIONS = "(1, 'France'), (2, 'Norway')";
export const CUSTOMERS = "(10, 1, 'Ann'), (20, 2, 'Bo'), (30, 1, 'Cy')";
export const ORDERS =
  "(1, 10, DATE '2024-01-01', 19.99, 5.25, 3), (2, 10, DATE '2024-01-02', 100.01, 50.00, 1), " +
  "(3, 20, DATE '2024-01-01', 0.10, 0.05, 10), (4, 30, DATE '2024-01-02', 7.00, 1.00, 2), " +
  "(5, 20, DATE '2024-01-03', 3.33, 1.11, 9007199254740993)";

/** By nation: revenue, cost, units, profit, latest_revenue (the nation's last day only). */
export const EXPECTED_BY_NATION = [
  ["France", "127.00", "56.25", 6n, "70.75", "107.01"],
  ["Norway", "3.43", "1.16", 9007199254741003n, "2.27", "3.33"],
] as const;

/** Tables with `int`, `money` and `date` types, created in `prefix` (e.g. `lakehouse.shop.`). */
export function tableSql(
  types: { int: string },
  places: { orders: string; customers: string; nations: string },
): string[] {
  return [
    `CREATE TABLE ${places.nations} (id ${types.int}, name VARCHAR)`,
    `CREATE TABLE ${places.customers} (id ${types.int}, nation_id ${types.int}, name VARCHAR)`,
    `CREATE TABLE ${places.orders} (id ${types.int}, customer_id ${types.int}, day DATE, amount DECIMAL(12,2), cost DECIMAL(12,2), qty ${types.int})`,
    `INSERT INTO ${places.nations} VALUES ${NATIONS}`,
    `INSERT INTO ${places.customers} VALUES ${CUSTOMERS}`,
    `INSERT INTO ${places.orders} VALUES ${ORDERS}`,
  ];
}

/** The model in backend C terms over tables `orders`, `customers`, `nations` (the stand-ins answer with it). */
export function engineDdl(view: string, names: { customer: string; nation: string }): string {
  return `CREATE SEMANTIC VIEW ${view} COMMENT = 'Sales with customers and nations' AS
    TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), n AS nations PRIMARY KEY (id))
    RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c, c_n AS c(nation_id) REFERENCES n)
    DIMENSIONS (o.day AS o.day, c.${names.customer} AS c.name, n.${names.nation} AS n.name)
    METRICS (o.revenue AS SUM(o.amount), o.cost AS SUM(o.cost), o.units AS SUM(o.qty),
      o.latest_revenue NON ADDITIVE BY (day) AS SUM(o.amount), profit AS revenue - cost)`;
}

/** Backend A: GET_DDL's text for the model (Snowflake's layout; base tables qualified). */
export const SNOWFLAKE_GET_DDL = [
  "create or replace semantic view SALES_MODEL",
  "\ttables (O as ANALYTICS.PUBLIC.ORDERS primary key (ID) with synonyms=('sales') comment='One row per order', " +
    "C as ANALYTICS.PUBLIC.CUSTOMERS primary key (ID), N as REF_DB.GEO.NATIONS primary key (ID) with tag (REF_DB.GEO.OWNER='geo'))",
  "\trelationships (O_TO_C as O(CUSTOMER_ID) references C(ID), C_TO_N as C(NATION_ID) references N(ID))",
  "\tdimensions (O.DAY as O.DAY, C.CUSTOMER as C.NAME with cortex search service ANALYTICS.PUBLIC.CUSTOMER_SEARCH using NAME, N.NATION as N.NAME)",
  "\tmetrics (O.REVENUE as SUM(O.AMOUNT) with synonyms=('sales') comment='Net revenue', O.COST as SUM(O.COST), O.UNITS as SUM(O.QTY), " +
    "O.LATEST_REVENUE non additive by (O.DAY) as SUM(O.AMOUNT) with tag (ANALYTICS.PUBLIC.KPI='yes'), PROFIT as REVENUE - COST)",
  "\tcomment='Sales with customers and nations'",
  "\tai_sql_generation 'Use revenue for sales questions.';",
].join("\n");

/** Backend B: the metric view's YAML (`fields:`, a nested join, composition, a semi-additive window measure). */
export const DATABRICKS_YAML = [
  "version: 1.1",
  "comment: Sales with customers and nations",
  "source: lakehouse.shop.orders",
  "joins:",
  "  - name: customer",
  "    source: lakehouse.shop.customers",
  "    on: source.customer_id = customer.id",
  "    joins:",
  "      - name: nation",
  "        source: geodata.geo.nations",
  "        on: customer.nation_id = nation.id",
  "fields:",
  "  - name: day",
  "    expr: day",
  "  - name: customer_name",
  "    expr: customer.name",
  "  - name: nation_name",
  "    expr: customer.nation.name",
  "measures:",
  "  - name: revenue",
  "    expr: SUM(amount)",
  "  - name: cost",
  "    expr: SUM(cost)",
  "  - name: units",
  "    expr: SUM(qty)",
  "  - name: profit",
  "    expr: MEASURE(revenue) - MEASURE(cost)",
  "  - name: latest_revenue",
  "    expr: SUM(amount)",
  "    window:",
  "      - order: day",
  "        range: current",
  "        semiadditive: last",
].join("\n");
