/**
 * The config area's public names, imported from their modules rather than from "lib": the barrel
 * also pulls in every other area, so these tests stay independent of their state.
 * `exports.test.ts` checks that "lib" and "lib/config" export the same names.
 */
export { ValidationError } from "../../../runtime/errors.js";
export { Secret } from "../../../runtime/config/secret.js";
export type {
  BackendASettings,
  BackendBSettings,
  BackendCSettings,
  ConnectionSettings,
} from "../../../runtime/config/types.js";
export { BackendAConfig, type BackendAConfigInput } from "../../../runtime/dialects/snowflake/snowflake-config.js";
export { BackendBConfig, type BackendBConfigInput } from "../../../runtime/dialects/databricks/databricks-config.js";
export { BackendCConfig, type BackendCConfigInput } from "../../../runtime/dialects/duckdb/duckdb-config.js";
export {
  loadConnectionSettings,
  loadConnectionSettingsIfPresent,
} from "../../../runtime/config/load-connection-settings.js";
export { resolveSettings } from "../../../runtime/config/resolve-settings.js";
export { parseDuration } from "../../../runtime/config/duration.js";
