/** One entry point for the engine: a connection name (TOML section) or a config object → settings. */
import { BackendAConfig } from "./backend-a-config.js";
import { BackendBConfig } from "./backend-b-config.js";
import { BackendCConfig } from "./backend-c-config.js";
import { DEFAULT_CONNECTION_NAME, loadConnectionSettings, type LoadOptions } from "./load-connection-settings.js";
import type { ConnectionSettings } from "./types.js";
import { ValidationError } from "../errors.js";

export type BackendConfigObject = BackendAConfig | BackendBConfig | BackendCConfig;

export interface ResolvedConnection {
  readonly settings: ConnectionSettings;
  /** The section name for a TOML connection; undefined for a config object (it carries no name). */
  readonly connectionName: string | undefined;
}

/**
 * A name reads `[connections.<name>]` from `configPath` (default `.lib.toml`). A config object was
 * validated (and read its environment fallbacks) when it was constructed, so `configPath` and
 * `env` do not apply to it.
 */
export function resolveSettings(
  nameOrConfig: string | BackendConfigObject = DEFAULT_CONNECTION_NAME,
  options: LoadOptions = {},
): ResolvedConnection {
  if (typeof nameOrConfig === "string") {
    return Object.freeze({ settings: loadConnectionSettings(nameOrConfig, options), connectionName: nameOrConfig });
  }
  if (
    nameOrConfig instanceof BackendAConfig ||
    nameOrConfig instanceof BackendBConfig ||
    nameOrConfig instanceof BackendCConfig
  ) {
    return Object.freeze({ settings: nameOrConfig.settings, connectionName: undefined });
  }
  throw new ValidationError("Expected a connection name or a BackendAConfig/BackendBConfig/BackendCConfig object", {
    source: "createEngine",
  });
}
