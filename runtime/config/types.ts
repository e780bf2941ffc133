/**
 * The resolved shape of a connection's configuration, after defaults, environment and validation.
 * This is the contract between `runtime/config` (which builds it) and the engine and drivers
 * (which read it). Durations are milliseconds; secrets are wrapped in `Secret`.
 */
import type { Secret } from "./secret.js";

import type { DIALECTS } from "../dialects/dialects.js";
import type { SettingsOf } from "../dialects/dialect.js";

/** A backend's public name (`type = "backend_a"`): the keys of DIALECTS. */
export type BackendType = keyof typeof DIALECTS;

export type { BackendAAuthType, BackendASettings } from "../dialects/snowflake/snowflake-settings.js";
export type { BackendBAuthType, BackendBSettings } from "../dialects/databricks/databricks-settings.js";
export type { BackendCSettings, SemanticViewsMode } from "../dialects/duckdb/duckdb-settings.js";

/** Fields every connection type accepts. */
export interface CommonSettings {
  readonly type: BackendType;
  /** Connections kept in the pool. */
  readonly poolSize: number;
  /** Extra connections allowed beyond poolSize under load. */
  readonly maxOverflow: number;
  /** Seconds to wait for a pooled connection before the pool's TimeoutError. */
  readonly timeout: number;
  /** Seconds after which a connection is replaced at checkout. */
  readonly recycle: number;
  /** Seconds `dispose()` waits for connections to close before abandoning them (resolved settings always carry it; default 10). */
  readonly disposeTimeout?: number;
  /** Test a pooled connection before handing it out. */
  readonly prePing: boolean;
  readonly user?: string | undefined;
  readonly password?: Secret | undefined;
  readonly database?: string | undefined;
  readonly schema?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly protocol?: "http" | "https" | undefined;
}

/** The settings of any backend: the union of every dialect's settings type. */
export type ConnectionSettings = { [B in BackendType]: SettingsOf<(typeof DIALECTS)[B]> }[BackendType];
