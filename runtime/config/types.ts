/**
 * The resolved shape of a connection's configuration, after defaults, environment and validation.
 * This is the contract between `runtime/config` (which builds it) and the engine and drivers
 * (which read it). Durations are milliseconds; secrets are wrapped in `Secret`.
 */
import type { Secret } from "./secret.js";

export type BackendType = "backend_a" | "backend_b" | "backend_c";

/** How backend C answers semantic-view statements (README "Backend C semantic views"). */
export type SemanticViewsMode = "auto" | "builtin" | "extension";

export type BackendAAuthType =
  "auth_jwt" | "auth_ext_browser" | "auth_oauth" | "auth_mfa" | "auth_sso" | "auth_pat" | "auth_wif";
export type BackendBAuthType = "OAuthU2M" | "OAuthM2M";

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

export interface BackendASettings extends CommonSettings {
  readonly type: "backend_a";
  readonly account?: string | undefined;
  readonly warehouse?: string | undefined;
  readonly role?: string | undefined;
  readonly region?: string | undefined;
  /** Milliseconds. */
  readonly loginTimeout?: number | undefined;
  readonly requestTimeout?: number | undefined;
  readonly clientTimeout?: number | undefined;
  /** Milliseconds between liveness checks of a running statement's session (default 10 s). */
  readonly heartbeatInterval?: number | undefined;
  readonly tlsSkipVerify: boolean;
  readonly ocspFailOpenMode: boolean;
  readonly keepSessionAlive: boolean;
  readonly appName?: string | undefined;
  readonly disableTelemetry: boolean;
  readonly cacheMfaToken: boolean;
  readonly storeTempCreds: boolean;
  readonly authType?: BackendAAuthType | undefined;
  readonly privateKeyPath?: string | undefined;
  readonly privateKeyPem?: Secret | undefined;
  readonly privateKeyPassphrase?: Secret | undefined;
  readonly jwtExpireTimeout?: number | undefined;
  readonly oauthToken?: Secret | undefined;
  readonly ssoUrl?: string | undefined;
  readonly identityProvider?: string | undefined;
}

export interface BackendBSettings extends CommonSettings {
  readonly type: "backend_b";
  /** Full connection string; it embeds the token, so it is a secret as a whole. */
  readonly uri?: Secret | undefined;
  readonly httpPath?: string | undefined;
  readonly token?: Secret | undefined;
  readonly catalog?: string | undefined;
  /** Milliseconds of silence on a connection before it fails (default 2 min). */
  readonly socketTimeout?: number | undefined;
  readonly authType?: BackendBAuthType | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: Secret | undefined;
  readonly azureTenantId?: string | undefined;
  readonly useDatabricksOAuthInAzure?: boolean | undefined;
}

export interface BackendCSettings extends CommonSettings {
  readonly type: "backend_c";
  /** A database file path, or `:memory:`. */
  readonly database: string;
  readonly readOnly: boolean;
  readonly semanticViews: SemanticViewsMode;
}

export type ConnectionSettings = BackendASettings | BackendBSettings | BackendCSettings;
