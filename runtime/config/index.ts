/**
 * `lib/config`: reading and resolving connection settings without creating an engine (what
 * `createEngine(name)` does internally): the TOML/env loader, the resolver behind config objects,
 * duration parsing, the settings types and the `Secret` wrapper they hold secrets in.
 */
export {
  loadConnectionSettings,
  loadConnectionSettingsIfPresent,
  type LoadOptions,
} from "./load-connection-settings.js";
export { resolveSettings, type BackendConfigObject, type ResolvedConnection } from "./resolve-settings.js";
export { parseDuration } from "./duration.js";
export { Secret } from "./secret.js";
export type { Environment } from "./config-context.js";
export type * from "./types.js";
