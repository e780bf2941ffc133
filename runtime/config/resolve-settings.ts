/** One entry point for the engine: a connection name (TOML section) or a config object → settings. */
import { BackendConfig } from "./backend-config.js";
import { DEFAULT_CONNECTION_NAME, loadConnectionSettings, type LoadOptions } from "./load-connection-settings.js";
import type { BackendType, ConnectionSettings } from "../dialects/dialects.js";
import { ValidationError } from "../errors.js";
import { BACKENDS, DIALECTS } from "../dialects/dialects.js";

/** A config object of any backend (`BackendAConfig`, ...). */
export type BackendConfigObject = BackendConfig<BackendType>;

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
  if (nameOrConfig instanceof BackendConfig) {
    return Object.freeze({ settings: nameOrConfig.settings as ConnectionSettings, connectionName: undefined });
  }
  const classes = BACKENDS.map((b) => DIALECTS[b].config.className).join("/");
  throw new ValidationError(`Expected a connection name or a ${classes} object`, { source: "createEngine" });
}
