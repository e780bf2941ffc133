/**
 * Connection settings resolved against the DIALECTS record: the lookups by backend name that the
 * configuration pipeline (`runtime/config/`, which knows no dialect) leaves to this layer. One entry
 * point for the engine: a connection name (TOML section) or a config object → settings.
 */
import { BackendConfig, resolveConfigInput, type ConfigObjectOptions } from "../config/backend-config.js";
import {
  DEFAULT_CONNECTION_NAME,
  loadSettingsFromFile,
  loadSettingsFromFileIfPresent,
  type LoadOptions,
} from "../config/config-file.js";
import { ValidationError } from "../errors.js";
import type { SettingsOf } from "./dialect.js";
import { BACKENDS, DIALECTS, type BackendType, type ConnectionSettings } from "./dialects.js";

/** The resolved settings type of one backend. */
export type SettingsFor<T extends BackendType> = SettingsOf<(typeof DIALECTS)[T]>;

/** A config object of any backend (`BackendAConfig`, ...). */
export type BackendConfigObject = BackendConfig<ConnectionSettings>;

export interface ResolvedConnection {
  readonly settings: ConnectionSettings;
  /** The section name for a TOML connection; undefined for a config object (it carries no name). */
  readonly connectionName: string | undefined;
}

/** Every dialect, in record order: the backends a section's `type` may name. */
const ALL_DIALECTS = Object.freeze(BACKENDS.map((backend) => DIALECTS[backend]));

/**
 * Load and validate `[connections.<name>]`. Throws `ValidationError` when the file or the section
 * is missing, the TOML does not parse, or a field is invalid.
 */
export function loadConnectionSettings(
  name: string = DEFAULT_CONNECTION_NAME,
  options: LoadOptions = {},
): ConnectionSettings {
  return loadSettingsFromFile(name, options, ALL_DIALECTS) as unknown as ConnectionSettings;
}

/**
 * Like {@link loadConnectionSettings}, but returns `undefined` when the file or the section does
 * not exist (for `lib codegen`, which then exits with status 2). An invalid file or section still
 * throws `ValidationError`.
 */
export function loadConnectionSettingsIfPresent(
  name: string,
  options: LoadOptions = {},
): ConnectionSettings | undefined {
  return loadSettingsFromFileIfPresent(name, options, ALL_DIALECTS) as unknown as ConnectionSettings | undefined;
}

/**
 * What constructing the backend's config class does, without the class (`lib codegen` opens a
 * database file this way): checks, environment fallback, resolution, errors named after the class.
 */
export function resolveConfigObject<T extends BackendType>(
  type: T,
  input: object,
  options: ConfigObjectOptions = {},
  className: string = DIALECTS[type].config.className,
): SettingsFor<T> {
  return resolveConfigInput(DIALECTS[type], input, options, className, ALL_DIALECTS) as unknown as SettingsFor<T>;
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
    return Object.freeze({ settings: nameOrConfig.settings, connectionName: undefined });
  }
  const classes = ALL_DIALECTS.map((dialect) => dialect.config.className).join("/");
  throw new ValidationError(`Expected a connection name or a ${classes} object`, { source: "createEngine" });
}
