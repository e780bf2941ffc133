/**
 * Backend A settings → snowflake-sdk 3.x `createConnection` options (and the few process-wide
 * switches the sdk only offers globally). Secrets are revealed here and nowhere else; the options
 * object never reaches a message or a log line.
 *
 * | setting | snowflake-sdk |
 * |---|---|
 * | account / region | `account` / `region` (account defaults to the host's first label) |
 * | host, port, protocol | `accessUrl = protocol://host[:port]` (protocol defaults to https) |
 * | user / password | `username` / `password` |
 * | database, schema, warehouse, role | same names |
 * | auth_type (none) | `SNOWFLAKE` (user/password) |
 * | auth_jwt | `SNOWFLAKE_JWT` + `privateKey` (private_key_pem) or `privateKeyPath`, `privateKeyPass` |
 * | auth_ext_browser | `EXTERNALBROWSER` (+ `browserActionTimeout` = login_timeout) |
 * | auth_oauth | `OAUTH` + `token` (oauth_token) |
 * | auth_mfa | `USERNAME_PASSWORD_MFA` + `clientRequestMFAToken` (cache_mfa_token) |
 * | auth_sso | `authenticator = sso_url` (native Okta) |
 * | auth_pat | `PROGRAMMATIC_ACCESS_TOKEN` + `token` (oauth_token, else password) |
 * | auth_wif | `WORKLOAD_IDENTITY` + `workloadIdentityProvider` (identity_provider, upper-cased), `token` (oauth_token) for OIDC |
 * | login_timeout | `retryTimeout` (s; the sdk raises values under 300 to 300) and our own login deadline |
 * | request_timeout | our own per-statement deadline (the sdk's query retries are not configurable) |
 * | client_timeout | `timeout` (per HTTP request, ms) |
 * | keep_session_alive | `clientSessionKeepAlive` |
 * | app_name | `application` |
 * | store_temp_creds | `clientStoreTemporaryCredential` |
 * | ocsp_fail_open_mode | global `configure({ ocspFailOpen })` (process-wide; no effect over http) |
 * | disable_telemetry | env `SF_TELEMETRY_DISABLE_CONNECTION_SHAPE=1` (process-wide; the sdk has no per-connection switch) |
 * | tls_skip_verify | unsupported: the sdk hard-codes certificate verification; `true` with https is a ValidationError |
 * | jwt_expire_timeout | unsupported: the sdk signs JWTs with a fixed 120 s lifetime; ignored |
 * | (always) | `jsTreatIntegerAsBigInt: true`, `representNullAsStringNull: false`, `sfRetryMaxLoginRetries: 1` |
 */
import type { BackendASettings } from "./snowflake-settings.js";
import { ValidationError } from "../../errors.js";

/** Login retries the sdk makes on network errors before giving up (its default, 7, takes minutes). */
export const LOGIN_RETRIES = 1;
/** Our own deadline for a login when login_timeout is not set. */
export const DEFAULT_LOGIN_DEADLINE_MS = 60_000;

const WIF_PROVIDERS = ["AWS", "AZURE", "GCP", "OIDC"] as const;

/** Options for `snowflake.createConnection` (the sdk's typings miss some, hence a plain record). */
export type SnowflakeConnectionOptions = Record<string, unknown>;

export function snowflakeConnectionOptions(settings: BackendASettings): SnowflakeConnectionOptions {
  const options: SnowflakeConnectionOptions = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) options[key] = value;
  };
  const protocol = settings.protocol ?? "https";
  if (settings.host !== undefined) {
    options.accessUrl = `${protocol}://${settings.host}${settings.port !== undefined ? `:${settings.port}` : ""}`;
  }
  const account = settings.account ?? settings.host?.split(".")[0];
  if (account === undefined) {
    throw new ValidationError("backend A needs `account` (or `host` to derive it from)", { field: "account" });
  }
  options.account = account;
  set("region", settings.region);
  set("username", settings.user);
  set("password", settings.password?.reveal());
  set("database", settings.database);
  set("schema", settings.schema);
  set("warehouse", settings.warehouse);
  set("role", settings.role);
  set("application", settings.appName);
  set("timeout", settings.clientTimeout);
  if (settings.loginTimeout !== undefined) options.retryTimeout = Math.max(1, Math.ceil(settings.loginTimeout / 1000));
  options.sfRetryMaxLoginRetries = LOGIN_RETRIES;
  // Numbers are fetched as text; NULL must stay null, not the string "NULL" (the sdk's default).
  options.representNullAsStringNull = false;
  // Second line of defence: even when fetching numbers as text the sdk first converts each one with
  // Number() (warning, and sending a precision-loss telemetry event, for integers beyond 2^53; a
  // future version "will throw"). With this session flag scale-0 columns skip that double.
  options.jsTreatIntegerAsBigInt = true;
  options.clientSessionKeepAlive = settings.keepSessionAlive;
  options.clientStoreTemporaryCredential = settings.storeTempCreds;

  switch (settings.authType) {
    case undefined:
      break;
    case "auth_jwt":
      options.authenticator = "SNOWFLAKE_JWT";
      set("privateKey", settings.privateKeyPem?.reveal());
      set("privateKeyPath", settings.privateKeyPath);
      set("privateKeyPass", settings.privateKeyPassphrase?.reveal());
      break;
    case "auth_ext_browser":
      options.authenticator = "EXTERNALBROWSER";
      set("browserActionTimeout", settings.loginTimeout);
      break;
    case "auth_oauth":
      options.authenticator = "OAUTH";
      set("token", settings.oauthToken?.reveal());
      break;
    case "auth_mfa":
      options.authenticator = "USERNAME_PASSWORD_MFA";
      options.clientRequestMFAToken = settings.cacheMfaToken;
      break;
    case "auth_sso":
      if (settings.ssoUrl === undefined)
        throw new ValidationError('`sso_url` is required when `auth_type` is "auth_sso"', { field: "sso_url" });
      options.authenticator = settings.ssoUrl;
      break;
    case "auth_pat":
      options.authenticator = "PROGRAMMATIC_ACCESS_TOKEN";
      set("token", settings.oauthToken?.reveal());
      break;
    case "auth_wif": {
      options.authenticator = "WORKLOAD_IDENTITY";
      const provider = settings.identityProvider?.toUpperCase();
      if (provider === undefined || !(WIF_PROVIDERS as readonly string[]).includes(provider)) {
        throw new ValidationError(
          `\`identity_provider\` must be one of ${WIF_PROVIDERS.join(", ")} when \`auth_type\` is "auth_wif", got ${JSON.stringify(settings.identityProvider ?? null)}`,
          { field: "identity_provider" },
        );
      }
      options.workloadIdentityProvider = provider;
      set("token", settings.oauthToken?.reveal());
      break;
    }
  }
  if (settings.tlsSkipVerify && protocol === "https") {
    throw new ValidationError(
      "`tls_skip_verify = true` is not supported on backend A: snowflake-sdk always verifies certificates. " +
        'Trust a private CA with NODE_EXTRA_CA_CERTS instead, or use protocol = "http" for a local stand-in',
      { field: "tls_skip_verify" },
    );
  }
  return options;
}

/** Our client-side deadline for one login (the sdk's own retry budget is at least 300 s). */
export function loginDeadlineMs(settings: BackendASettings): number {
  return settings.loginTimeout ?? DEFAULT_LOGIN_DEADLINE_MS;
}

/** The sdk's process-wide settings this connection asks for. */
export interface SnowflakeGlobalSettings {
  readonly ocspFailOpen: boolean;
  readonly disableTelemetry: boolean;
}

export function snowflakeGlobalSettings(settings: BackendASettings): SnowflakeGlobalSettings {
  return { ocspFailOpen: settings.ocspFailOpenMode, disableTelemetry: settings.disableTelemetry };
}
