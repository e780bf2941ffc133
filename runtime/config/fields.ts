/**
 * The configuration schema as data: every field of every backend, with its TOML name, its
 * camelCase name (config objects and resolved settings), type, default, secrecy and meaning.
 * Resolution, validation, the config-object input types and the README reference table are all
 * derived from these tables, so a field is added in exactly one place.
 */
import { MAX_TIMER_MS } from "./duration.js";
import type { BackendType } from "./types.js";

/** Longest whole-second value a Node timer can wait (2^31 − 1 ms; longer ones fire after ~1 ms). */
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

export type FieldKind = "string" | "integer" | "boolean" | "duration" | "enum";

export interface FieldSpec {
  /** Name in the TOML section (snake_case). */
  readonly toml: string;
  /** Name in config objects and resolved settings (camelCase). */
  readonly camel: string;
  readonly kind: FieldKind;
  /** Allowed values of an `enum` field. */
  readonly values?: readonly string[];
  /** Default applied when neither the section nor the environment gives a value. */
  readonly default?: string | number | boolean;
  /** How the default reads in the docs, when the plain value would mislead. */
  readonly defaultDoc?: string;
  /** Never printed, and wrapped in `Secret` once resolved. */
  readonly secret?: boolean;
  /** Inclusive bounds of an `integer` field. */
  readonly min?: number;
  readonly max?: number;
  /** Pattern a `string` field must match, with a readable form for messages. */
  readonly pattern?: RegExp;
  readonly patternDoc?: string;
  /** `none`: never read from the environment (only `type`). */
  readonly env?: "none";
  /** Backends on which this field is read from an unprefixed variable (`SCHEMA`). */
  readonly unprefixedEnvOn?: readonly BackendType[];
  readonly description: string;
}

export const BACKEND_TYPES = ["backend_a", "backend_b", "backend_c"] as const satisfies readonly BackendType[];

/** Environment prefix per backend (README "Configuration reference"). */
export const ENV_PREFIX: Readonly<Record<BackendType, string>> = {
  backend_a: "BACKEND_A_",
  backend_b: "BACKEND_B_",
  backend_c: "BACKEND_C_",
};

export const COMMON_FIELDS = [
  {
    toml: "type",
    camel: "type",
    kind: "enum",
    values: BACKEND_TYPES,
    env: "none",
    defaultDoc: "required",
    description: "Backend of the connection; decides which other fields exist",
  },
  {
    toml: "pool_size",
    camel: "poolSize",
    kind: "integer",
    default: 5,
    defaultDoc: "5 (backend C `:memory:`: 1)",
    min: 1,
    description: "Connections kept in the pool",
  },
  {
    toml: "max_overflow",
    camel: "maxOverflow",
    kind: "integer",
    default: 3,
    min: 0,
    description: "Extra connections allowed beyond pool_size under load",
  },
  {
    toml: "timeout",
    camel: "timeout",
    kind: "integer",
    default: 30,
    min: 0,
    max: MAX_TIMER_SECONDS,
    description:
      "Seconds to wait for a free pooled connection when all pool_size + max_overflow are checked out, before the pool's TimeoutError (0: fail at once); opening a connection is bounded by the backend's own timeouts instead",
  },
  {
    toml: "recycle",
    camel: "recycle",
    kind: "integer",
    default: 3600,
    min: 0,
    max: MAX_TIMER_SECONDS,
    description: "Seconds after which a connection is closed and replaced at checkout",
  },
  {
    toml: "dispose_timeout",
    camel: "disposeTimeout",
    kind: "integer",
    default: 10,
    min: 0,
    max: MAX_TIMER_SECONDS,
    description:
      "Seconds `engine.dispose()` waits for connections to close (an unresponsive warehouse) before abandoning them",
  },
  {
    toml: "pre_ping",
    camel: "prePing",
    kind: "boolean",
    default: false,
    description: "Test a pooled connection before handing it out; replace it if dead",
  },
  { toml: "user", camel: "user", kind: "string", description: "Username" },
  {
    toml: "password",
    camel: "password",
    kind: "string",
    secret: true,
    description: "Password for basic authentication",
  },
  {
    toml: "database",
    camel: "database",
    kind: "string",
    defaultDoc: "none (backend C: `:memory:`)",
    description: "Default database",
  },
  {
    toml: "schema",
    camel: "schema",
    kind: "string",
    unprefixedEnvOn: ["backend_a", "backend_b"],
    description: "Default schema (backends A and B: env `SCHEMA`, unprefixed)",
  },
  {
    toml: "host",
    camel: "host",
    kind: "string",
    description: "Explicit hostname, an alternative to the account-derived URI",
  },
  { toml: "port", camel: "port", kind: "integer", min: 1, max: 65535, description: "Connection port" },
  { toml: "protocol", camel: "protocol", kind: "enum", values: ["http", "https"], description: "`http` or `https`" },
] as const satisfies readonly FieldSpec[];

export const BACKEND_A_AUTH_TYPES = [
  "auth_jwt",
  "auth_ext_browser",
  "auth_oauth",
  "auth_mfa",
  "auth_sso",
  "auth_pat",
  "auth_wif",
] as const;
export const BACKEND_B_AUTH_TYPES = ["OAuthU2M", "OAuthM2M"] as const;
export const SEMANTIC_VIEWS_MODES = ["auto", "builtin", "extension"] as const;

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
  { toml: "request_timeout", camel: "requestTimeout", kind: "duration", description: "Request retry timeout" },
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

export const BACKEND_B_FIELDS = [
  {
    toml: "uri",
    camel: "uri",
    kind: "string",
    secret: true,
    description: "`<scheme>://token:<token>@<host>:<port>/<http-path>`; not with host, http_path, token or port",
  },
  { toml: "http_path", camel: "httpPath", kind: "string", description: "SQL warehouse HTTP path (decomposed mode)" },
  {
    toml: "token",
    camel: "token",
    kind: "string",
    secret: true,
    description: "Personal access token (decomposed mode)",
  },
  { toml: "catalog", camel: "catalog", kind: "string", description: "Default catalog" },
  {
    toml: "socket_timeout",
    camel: "socketTimeout",
    kind: "duration",
    defaultDoc: "`2m`",
    description:
      "Longest silence on a connection to the warehouse (opening a session, a statement, a fetch) before it fails",
  },
  {
    toml: "auth_type",
    camel: "authType",
    kind: "enum",
    values: BACKEND_B_AUTH_TYPES,
    description: "OAuthU2M (browser) or OAuthM2M (service principal); omit it for token authentication",
  },
  { toml: "client_id", camel: "clientId", kind: "string", description: "M2M service principal client ID" },
  {
    toml: "client_secret",
    camel: "clientSecret",
    kind: "string",
    secret: true,
    description: "M2M service principal client secret",
  },
  {
    toml: "azure_tenant_id",
    camel: "azureTenantId",
    kind: "string",
    description:
      "OAuth on an Azure workspace with a Microsoft Entra ID service principal: its tenant (otherwise Entra's `organizations` endpoint is used)",
  },
  {
    toml: "use_databricks_oauth_in_azure",
    camel: "useDatabricksOAuthInAzure",
    kind: "boolean",
    defaultDoc: "`false`",
    description:
      "OAuth on an Azure workspace through Databricks' own OAuth (a Databricks-managed service principal secret) instead of Entra ID",
  },
] as const satisfies readonly FieldSpec[];

export const BACKEND_C_FIELDS = [
  {
    toml: "database",
    camel: "database",
    kind: "string",
    default: ":memory:",
    description: "Path to a database file, or `:memory:` for an in-memory database",
  },
  {
    toml: "read_only",
    camel: "readOnly",
    kind: "boolean",
    default: false,
    description: "Open the database in read-only mode",
  },
  {
    toml: "semantic_views",
    camel: "semanticViews",
    kind: "enum",
    values: SEMANTIC_VIEWS_MODES,
    default: "auto",
    description: "`auto` (extension if installed, else built-in), `builtin` or `extension`",
  },
] as const satisfies readonly FieldSpec[];

export const BACKEND_SPECIFIC_FIELDS = {
  backend_a: BACKEND_A_FIELDS,
  backend_b: BACKEND_B_FIELDS,
  backend_c: BACKEND_C_FIELDS,
} as const satisfies Readonly<Record<BackendType, readonly FieldSpec[]>>;

const merged = new Map<BackendType, readonly FieldSpec[]>(
  BACKEND_TYPES.map((type) => {
    const specific: readonly FieldSpec[] = BACKEND_SPECIFIC_FIELDS[type];
    const overridden = new Set(specific.map((f) => f.toml));
    // A backend-specific entry replaces the common one of the same name (backend C's `database`).
    return [type, Object.freeze([...COMMON_FIELDS.filter((f) => !overridden.has(f.toml)), ...specific])];
  }),
);

/** Every field a section of this backend accepts, common fields first. */
export function fieldsFor(type: BackendType): readonly FieldSpec[] {
  return merged.get(type) ?? [];
}

/** One field of a backend by TOML name; throws for a name the tables do not have (a bug, not user input). */
export function fieldSpec(type: BackendType, toml: string): FieldSpec {
  const spec = fieldsFor(type).find((f) => f.toml === toml);
  if (spec === undefined) throw new Error(`no ${type} field ${toml}`);
  return spec;
}

/** The environment variable a field falls back to on this backend, or undefined (`type`). */
export function envVarName(type: BackendType, field: FieldSpec): string | undefined {
  if (field.env === "none") return undefined;
  if (field.unprefixedEnvOn?.includes(type)) return field.toml.toUpperCase();
  return ENV_PREFIX[type] + field.toml.toUpperCase();
}

// ---- Types derived from the tables (config-object inputs) ----

type FieldValue<F> = F extends { readonly kind: "enum"; readonly values: readonly (infer V)[] }
  ? V
  : F extends { readonly kind: "integer" }
    ? number
    : F extends { readonly kind: "boolean" }
      ? boolean
      : string;

/** The camelCase input object of one backend's fields, every field optional, `type` excluded. */
export type ConfigInputOf<Fields extends readonly FieldSpec[]> = {
  readonly [F in Exclude<Fields[number], { readonly toml: "type" }> as F["camel"]]?: FieldValue<F> | undefined;
};

type CommonField = (typeof COMMON_FIELDS)[number];
type WithCommon<Specific extends readonly FieldSpec[]> = readonly (
  Exclude<CommonField, { readonly toml: Specific[number]["toml"] }> | Specific[number]
)[];

export type BackendAFields = WithCommon<typeof BACKEND_A_FIELDS>;
export type BackendBFields = WithCommon<typeof BACKEND_B_FIELDS>;
export type BackendCFields = WithCommon<typeof BACKEND_C_FIELDS>;
