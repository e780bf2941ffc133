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
export { BackendAConfig, type BackendAConfigInput } from "./config/backend-a-config.js";
export { BackendBConfig, type BackendBConfigInput } from "./config/backend-b-config.js";
export { BackendCConfig, type BackendCConfigInput } from "./config/backend-c-config.js";
export type { ConfigObjectOptions } from "./config/backend-config.js";
export type { Environment } from "./config/config-context.js";
export { loadConnectionSettings, loadConnectionSettingsIfPresent, type LoadOptions } from "./config/load-connection-settings.js";
export { resolveSettings, type BackendConfigObject, type ResolvedConnection } from "./config/resolve-settings.js";
export { parseDuration } from "./config/duration.js";
