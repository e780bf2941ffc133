/**
 * The one sales fixture of the test suite: the SPEC's `sales` view (revenue and cost per country
 * and region) and an `orders` view with one member of every value type, their rows, how each
 * backend seeds them (DuckDB DDL for backend C, the stand-ins' view definitions for A and B), and
 * the one set of expected answers every backend must give.
 */
import { Decimal, Dimension, Fact, Metric, SemanticView } from "lib";

export interface SalesRow {
  readonly revenue: number;
  readonly cost: number;
  readonly country: string;
  readonly region: string | null;
}

/** Several rows share a country (grouping sums them); one region is NULL (null ordering, IS NULL). */
export const SALES_ROWS: readonly SalesRow[] = Object.freeze([
  { revenue: 100, cost: 40, country: "US", region: "West" },
  { revenue: 250, cost: 90, country: "US", region: "East" },
  { revenue: 75, cost: 30, country: "US", region: "West" },
  { revenue: 300, cost: 120, country: "DE", region: "Berlin" },
  { revenue: 120, cost: 50, country: "DE", region: "Bavaria" },
  { revenue: 90, cost: 60, country: "FR", region: "Paris" },
  { revenue: 60, cost: 20, country: "JP", region: "Kanto" },
  { revenue: 40, cost: 35, country: "JP", region: null },
]);

export interface OrderRow {
  readonly id: number;
  readonly status: string;
  /** TIMESTAMP (no zone), written as SQL literal text. */
  readonly orderedAt: string;
  readonly orderedOn: string;
  readonly isRush: boolean;
  readonly quantity: number;
  /** DECIMAL(18,2) as exact text. */
  readonly price: string;
}

/** The shipped price, and its price times quantity, have 16 and 17 significant digits: a double cannot hold them. */
export const ORDER_ROWS: readonly OrderRow[] = Object.freeze([
  {
    id: 1,
    status: "open",
    orderedAt: "2024-02-29 12:34:56.789",
    orderedOn: "2024-02-29",
    isRush: true,
    quantity: 3,
    price: "19.99",
  },
  {
    id: 2,
    status: "open",
    orderedAt: "2024-03-01 00:00:00",
    orderedOn: "2024-03-01",
    isRush: false,
    quantity: 1,
    price: "0.01",
  },
  {
    id: 3,
    status: "shipped",
    orderedAt: "1969-12-31 23:59:59.5",
    orderedOn: "1969-12-31",
    isRush: false,
    quantity: 2,
    price: "99999999999999.99",
  },
]);

/** The SPEC's example view. */
export class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

/** One member of every value type. */
export class Orders extends SemanticView("orders", {
  total: Metric<Decimal>(),
  orderCount: Metric<bigint>(),
  status: Dimension<string>(),
  orderedAt: Dimension<Date>(),
  orderedOn: Dimension<Date>(),
  isRush: Dimension<boolean>(),
  quantity: Fact<number>(),
  price: Fact<Decimal>(),
  /** The status again, as a fact: two orders share it, so a facts-only query returns duplicate rows. */
  statusCode: Fact<string>(),
}) {}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

const text = (value: string | null): string => (value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`);

/** `CREATE TABLE sales_data`; `integerType` is the warehouse's integer type (Snowflake's INTEGER is NUMBER(38,0)). */
export function salesTableDdl(integerType = "INTEGER"): string {
  return `CREATE TABLE sales_data (revenue ${integerType}, cost ${integerType}, country VARCHAR, region VARCHAR)`;
}

/** `sales_data` with the fixture's rows. */
export function salesTableSql(integerType = "INTEGER"): string[] {
  const values = SALES_ROWS.map((r) => `(${r.revenue}, ${r.cost}, ${text(r.country)}, ${text(r.region)})`);
  return [salesTableDdl(integerType), `INSERT INTO sales_data VALUES ${values.join(", ")}`];
}

/** `orders_data`. */
export function ordersTableSql(): string[] {
  const values = ORDER_ROWS.map(
    (r) =>
      `(${r.id}, ${text(r.status)}, TIMESTAMP '${r.orderedAt}', DATE '${r.orderedOn}', ${r.isRush}, ${r.quantity}, ${r.price})`,
  );
  return [
    `CREATE TABLE orders_data (id INTEGER, status VARCHAR, ordered_at TIMESTAMP, ordered_on DATE, is_rush BOOLEAN,
       quantity INTEGER, price DECIMAL(18,2))`,
    `INSERT INTO orders_data VALUES ${values.join(", ")}`,
  ];
}

/** Backend C: the views in the DDL of the DuckDB semantic_views extension. */
export const SALES_VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (sales_data)
  DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
  METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))`;

export const ORDERS_VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW orders AS
  TABLES (o AS orders_data PRIMARY KEY (id))
  FACTS (o.quantity AS quantity, o.price AS price, o.statusCode AS status)
  DIMENSIONS (o.status AS status, o.orderedAt AS ordered_at, o.orderedOn AS ordered_on, o.isRush AS is_rush)
  METRICS (o.total AS SUM(price * quantity), o.orderCount AS COUNT(*))`;

/** Backend A: the stand-in's semantic views (names fold to upper case unless written otherwise). */
export const SNOWFLAKE_VIEWS = [
  {
    name: "SALES",
    table: "sales_data",
    dimensions: { COUNTRY: "country", REGION: "region" },
    metrics: { REVENUE: "SUM(revenue)", COST: "SUM(cost)" },
    comment: "Sales by country",
  },
  {
    name: "ORDERS",
    table: "orders_data",
    dimensions: { STATUS: "status", orderedAt: "ordered_at", orderedOn: "ordered_on", isRush: "is_rush" },
    metrics: { TOTAL: "SUM(price * quantity)", orderCount: "COUNT(*)" },
    facts: { QUANTITY: "quantity", PRICE: "price", statusCode: "status" },
    dataTypes: {
      TOTAL: "NUMBER(38,2)",
      orderedAt: "TIMESTAMP_NTZ(9)",
      orderedOn: "DATE",
      isRush: "BOOLEAN",
      QUANTITY: "NUMBER(9,0)",
      PRICE: "NUMBER(18,2)",
    },
  },
] as const;

/** Backend B: the stand-in's metric views (metric views have no facts). */
export const DATABRICKS_VIEWS = [
  {
    name: "sales",
    source: "sales_data",
    comment: "Sales by country and region",
    dimensions: { country: "country", region: "region" },
    measures: { revenue: "SUM(revenue)", cost: "SUM(cost)" },
  },
  {
    name: "orders",
    source: "orders_data",
    comment: "Orders",
    dimensions: { status: "status", orderedAt: "ordered_at", orderedOn: "ordered_on", isRush: "is_rush" },
    measures: { total: "SUM(price * quantity)", orderCount: "COUNT(*)" },
  },
] as const;

// ---------------------------------------------------------------------------------------------
// Expected answers (the same on every backend)
// ---------------------------------------------------------------------------------------------

export interface SalesByCountry {
  readonly country: string;
  /** SUM of an integer column: a 64-bit-or-wider integer on every backend, so a bigint. */
  readonly revenue: bigint;
  readonly cost: bigint;
}

/** Revenue and cost per country, ordered by revenue descending: the SPEC example's answer. */
export const SALES_BY_COUNTRY: readonly SalesByCountry[] = Object.freeze([
  { country: "US", revenue: 425n, cost: 160n },
  { country: "DE", revenue: 420n, cost: 170n },
  { country: "JP", revenue: 100n, cost: 55n },
  { country: "FR", revenue: 90n, cost: 60n },
]);

/** Revenue and cost over all rows. */
export const SALES_TOTALS = Object.freeze({ revenue: 1035n, cost: 445n });

/** Regions in ascending order, NULL last (the default placement). */
export const REGIONS_ASC: readonly (string | null)[] = Object.freeze([
  "Bavaria",
  "Berlin",
  "East",
  "Kanto",
  "Paris",
  "West",
  null,
]);

/** `total` (SUM(price * quantity)) and `orderCount` per status, as exact text and bigint. */
export const ORDERS_BY_STATUS: readonly { status: string; total: string; orderCount: bigint }[] = Object.freeze([
  { status: "open", total: "59.98", orderCount: 2n },
  { status: "shipped", total: "199999999999999.98", orderCount: 1n },
]);
