/**
 * `lib/config`: reading and resolving connection settings without creating an engine (what
 * `createEngine(name)` does internally): the TOML/env loader, the resolver behind config objects,
 * duration parsing, the settings types and the `Secret` wrapper they hold secrets in.
 */
export {
  loadConnectionSettings,
  loadConnectionSettingsIfPresent,
  resolveSettings,
  type BackendConfigObject,
  type ResolvedConnection,
} from "../dialects/resolve-settings.js";
export type { LoadOptions } from "./config-file.js";
export { parseDuration } from "./duration.js";
export { Secret } from "./secret.js";
export type { Environment } from "./config-context.js";
export type { BackendType, ConnectionSettings } from "../dialects/dialects.js";
export type { CommonSettings } from "../dialects/common-settings.js";
export type { BackendAAuthType, BackendASettings } from "../dialects/snowflake/snowflake-settings.js";
export type { BackendBAuthType, BackendBSettings } from "../dialects/databricks/databricks-settings.js";
export type { BackendCSettings, SemanticViewsMode } from "../dialects/duckdb/duckdb-settings.js";
