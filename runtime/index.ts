/**
 * `lib`: typed semantic-layer queries over Snowflake semantic views (backend A), Databricks metric
 * views (backend B) and DuckDB (backend C). Every public name of API.md is exported from here.
 */
export * from "./errors.js";
export { Decimal } from "./values/decimal.js";
export { Secret } from "./config/secret.js";
export type * from "./config/types.js";
export type { ColumnInfo, ValueKind, QueryResult, ResultStream } from "./driver/database-connection.js";
export type { PooledConnection, Row } from "./engine/pooled-connection.js";
