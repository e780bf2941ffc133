/**
 * The config area's public names, imported from their modules rather than from "lib": the barrel
 * also pulls in every other area, so these tests stay independent of their state.
 * `exports.test.ts` checks that "lib" and "lib/config" export the same names.
 */
export { ValidationError } from "../../../runtime/errors.js";
export { Secret } from "../../../runtime/config/secret.js";
export type { BackendASettings } from "../../../runtime/dialects/snowflake/snowflake-settings.js";
export type { BackendBSettings } from "../../../runtime/dialects/databricks/databricks-settings.js";
export type { BackendCSettings } from "../../../runtime/dialects/duckdb/duckdb-settings.js";
export type { ConnectionSettings } from "../../../runtime/dialects/dialects.js";
export { BackendAConfig, type BackendAConfigInput } from "../../../runtime/dialects/snowflake/snowflake-config.js";
export { BackendBConfig, type BackendBConfigInput } from "../../../runtime/dialects/databricks/databricks-config.js";
export { BackendCConfig, type BackendCConfigInput } from "../../../runtime/dialects/duckdb/duckdb-config.js";
export { loadConnectionSettings, loadConnectionSettingsIfPresent } from "../../../runtime/dialects/resolve-settings.js";
export { resolveSettings } from "../../../runtime/dialects/resolve-settings.js";
export { parseDuration } from "../../../runtime/config/duration.js";
