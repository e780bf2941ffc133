/** The TOML/config-object fields of a `type = "backend_a"` section (README "Configuration reference"). */
import { withCommonFields, type FieldSpec, type WithCommon } from "../../config/fields.js";

export const BACKEND_A_AUTH_TYPES = [
  "auth_jwt",
  "auth_ext_browser",
  "auth_oauth",
  "auth_mfa",
  "auth_sso",
  "auth_pat",
  "auth_wif",
] as const;

export const BACKEND_A_FIELDS = [
  { toml: "account", camel: "account", kind: "string", description: "Account identifier" },
  { toml: "warehouse", camel: "warehouse", kind: "string", description: "Virtual warehouse" },
  { toml: "role", camel: "role", kind: "string", description: "Role" },
  {
    toml: "region",
    camel: "region",
    kind: "string",
    description: "Region, when it is not embedded in the account identifier",
  },
  { toml: "login_timeout", camel: "loginTimeout", kind: "duration", description: "Login retry timeout" },
  {
    toml: "request_timeout",
    camel: "requestTimeout",
    kind: "duration",
    defaultDoc: "`10m`",
    description:
      "Longest a statement waits for its answer; then it is cancelled and fails with OperationalError (code `request_timeout`). `0s`: no bound",
  },
  { toml: "client_timeout", camel: "clientTimeout", kind: "duration", description: "Network round-trip timeout" },
  {
    toml: "heartbeat_interval",
    camel: "heartbeatInterval",
    kind: "duration",
    defaultDoc: "`10s`",
    description:
      "While a statement runs, its session is checked this often; a check unanswered for as long fails the statement (a warehouse that died mid-query) with OperationalError",
  },
  {
    toml: "tls_skip_verify",
    camel: "tlsSkipVerify",
    kind: "boolean",
    default: false,
    description: "Disable TLS certificate verification",
  },
  {
    toml: "ocsp_fail_open_mode",
    camel: "ocspFailOpenMode",
    kind: "boolean",
    default: true,
    description: "Allow the connection when the OCSP check fails",
  },
  {
    toml: "keep_session_alive",
    camel: "keepSessionAlive",
    kind: "boolean",
    default: false,
    description: "Prevent session expiry during long operations",
  },
  {
    toml: "app_name",
    camel: "appName",
    kind: "string",
    pattern: /^[A-Za-z][A-Za-z0-9._-]{1,50}$/,
    patternDoc: "a letter then 1 to 50 of A-Z a-z 0-9 . _ -",
    description: "Application identifier sent to the backend",
  },
  {
    toml: "query_tag",
    camel: "queryTag",
    kind: "string",
    pattern: /^[\s\S]{0,2000}$/,
    patternDoc: "at most 2000 characters",
    defaultDoc: "a JSON tag per statement",
    description:
      'QUERY_TAG sent with every statement, for cost attribution in QUERY_HISTORY. Default: `{"app":"lib","view":"<view>","fields":[<field names>]}` (names only, never values); a value here replaces it, an empty string sends none',
  },
  {
    toml: "disable_telemetry",
    camel: "disableTelemetry",
    kind: "boolean",
    default: false,
    description: "Disable usage telemetry",
  },
  {
    toml: "cache_mfa_token",
    camel: "cacheMfaToken",
    kind: "boolean",
    default: false,
    description: "Cache the MFA token for later connections",
  },
  {
    toml: "store_temp_creds",
    camel: "storeTempCreds",
    kind: "boolean",
    default: false,
    description: "Cache the ID token for single sign-on",
  },
  {
    toml: "auth_type",
    camel: "authType",
    kind: "enum",
    values: BACKEND_A_AUTH_TYPES,
    description: "Authenticator; omit it for user/password authentication",
  },
  {
    toml: "private_key_path",
    camel: "privateKeyPath",
    kind: "string",
    description: "File path to a PKCS1 or PKCS8 private key (not with private_key_pem)",
  },
  {
    toml: "private_key_pem",
    camel: "privateKeyPem",
    kind: "string",
    secret: true,
    description: "Inline PEM-encoded PKCS8 private key (not with private_key_path)",
  },
  {
    toml: "private_key_passphrase",
    camel: "privateKeyPassphrase",
    kind: "string",
    secret: true,
    description: "Passphrase for an encrypted PKCS8 key",
  },
  { toml: "jwt_expire_timeout", camel: "jwtExpireTimeout", kind: "duration", description: "JWT expiry" },
  {
    toml: "oauth_token",
    camel: "oauthToken",
    kind: "string",
    secret: true,
    description: "Bearer token for auth_oauth",
  },
  {
    toml: "sso_url",
    camel: "ssoUrl",
    kind: "string",
    description: "Single sign-on server URL; required with auth_sso",
  },
  {
    toml: "identity_provider",
    camel: "identityProvider",
    kind: "string",
    description: "Identity provider for auth_wif",
  },
] as const satisfies readonly FieldSpec[];

/** Every field a section accepts, common fields first. */
export const BACKEND_A_ALL_FIELDS = withCommonFields(BACKEND_A_FIELDS);

export type BackendAFields = WithCommon<typeof BACKEND_A_FIELDS>;
