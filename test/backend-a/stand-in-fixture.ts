/**
 * The backend A test fixture: a Snowflake stand-in on 127.0.0.1 seeded with the SPEC sales data
 * (`SALES` semantic view) and an `ORDERS` view with money, dates and flags, plus engines pointed
 * at it through the real snowflake-sdk.
 */
import { BackendAConfig, createEngine, type Engine } from "lib";
import type { BackendAConfigInput } from "../../runtime/dialects/snowflake/snowflake-config.js";
import { SnowflakeStandIn, type SnowflakeStandInOptions } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { SALES_ROWS } from "../support/sales-engine.js";

export const USER = "tester";
export const PASSWORD = "pa55-Word!x7";

const salesValues = SALES_ROWS.map((r) => `(${r.revenue}, ${r.cost}, '${r.country}', '${r.region}')`).join(", ");

export const SEED_SQL: readonly string[] = [
  // Snowflake's INTEGER is NUMBER(38,0).
  "CREATE TABLE sales_data (revenue DECIMAL(38,0), cost DECIMAL(38,0), country VARCHAR, region VARCHAR)",
  `INSERT INTO sales_data VALUES ${salesValues}`,
  `CREATE TABLE orders (status VARCHAR, ordered_at TIMESTAMP, ordered_on DATE, is_rush BOOLEAN,
     quantity DECIMAL(9,0), price DECIMAL(18,2))`,
  `INSERT INTO orders VALUES
     ('open', TIMESTAMP '2024-02-29 12:34:56.789', DATE '2024-02-29', true, 3, 19.99),
     ('open', TIMESTAMP '2024-03-01 00:00:00', DATE '2024-03-01', false, 1, 0.01),
     ('shipped', TIMESTAMP '1969-12-31 23:59:59.5', DATE '1969-12-31', false, 2, 12345678901.25)`,
];

export function standInOptions(extra: SnowflakeStandInOptions = {}): SnowflakeStandInOptions {
  return {
    users: { [USER]: PASSWORD },
    seedSql: SEED_SQL,
    semanticViews: [
      {
        name: "SALES",
        table: "sales_data",
        dimensions: { COUNTRY: "country", REGION: "region" },
        metrics: { REVENUE: "SUM(revenue)", COST: "SUM(cost)" },
        comment: "Sales by country",
      },
      {
        name: "ORDERS",
        table: "orders",
        dimensions: { STATUS: "status", orderedAt: "ordered_at", orderedOn: "ordered_on", isRush: "is_rush" },
        metrics: { TOTAL: "SUM(price * quantity)", orderCount: "COUNT(*)" },
        facts: { QUANTITY: "quantity", PRICE: "price" },
        dataTypes: {
          TOTAL: "NUMBER(38,2)",
          orderedAt: "TIMESTAMP_NTZ(9)",
          orderedOn: "DATE",
          isRush: "BOOLEAN",
          QUANTITY: "NUMBER(9,0)",
          PRICE: "NUMBER(18,2)",
        },
      },
    ],
    ...extra,
  };
}

export function startStandIn(extra: SnowflakeStandInOptions = {}): Promise<SnowflakeStandIn> {
  return SnowflakeStandIn.start(standInOptions(extra));
}

/** Config for an engine on the stand-in (basic auth unless overridden). */
export function standInConfig(standIn: { port: number }, extra: BackendAConfigInput = {}): BackendAConfig {
  return new BackendAConfig({
    account: "fake",
    host: "127.0.0.1",
    port: standIn.port,
    protocol: "http",
    user: USER,
    password: PASSWORD,
    database: "ANALYTICS",
    schema: "PUBLIC",
    warehouse: "WH_XS",
    role: "ANALYST",
    poolSize: 1,
    loginTimeout: "5s",
    ...extra,
  } as BackendAConfigInput);
}

export function standInEngine(standIn: { port: number }, extra: BackendAConfigInput = {}, register = false): Engine {
  return createEngine(standInConfig(standIn, extra), { register });
}
