/**
 * Backend B settings → `@databricks/sql` connect options and session request.
 *
 * | setting | driver option |
 * |---|---|
 * | `host`, `port` (443), `httpPath` | `host`, `port`, `path` (HTTPS always: the driver hard-codes it) |
 * | `token` | `token` (auth type `access-token`, sent as `Authorization: Bearer`; edge whitespace trimmed) |
 * | `authType = "OAuthM2M"` + `clientId` + `clientSecret` | `authType: "databricks-oauth"`, `oauthClientId`, `oauthClientSecret` |
 * | `azureTenantId`, `useDatabricksOAuthInAzure` | the same driver options (Azure hosts: Entra tenant, or Databricks' own OAuth) |
 * | `authType = "OAuthU2M"` (+ optional `clientId`) | `authType: "databricks-oauth"` (browser flow) |
 * | `uri` | the config layer derives `host`/`port`/`httpPath`/`token` from it (parsed here too as a fallback) |
 * | `catalog`, `schema` | `openSession({ initialCatalog, initialSchema })` |
 * | `socketTimeout` (default 2 min) | `socketTimeout` |
 * | env `BACKEND_B_CA_CERT` (a PEM file path) | `customCaCert`: an extra trusted CA (adds to the system roots; verification stays on) |
 *
 * Always set: `telemetryEnabled: false` (no calls besides the warehouse's own endpoint),
 * `enableMetricViewMetadata: true` (the driver then opens each session with
 * `spark.sql.thriftserver.metadata.metricview.enabled=true`, so the warehouse's metadata calls report metric
 * views as METRIC_VIEW rather than VIEW; databricks-sql-nodejs PR #312),
 * `preserveBigNumericPrecision: true` (BIGINT as bigint, DECIMAL as exact text on Arrow results),
 * bounded retries of idempotent calls (3 attempts, 100 ms–1 s backoff, 30 s budget) and the socket timeout,
 * so a dead warehouse fails fast. Certificate checks are never disabled.
 */
import { readFileSync } from "node:fs";
import type { ConnectionOptions, OpenSessionRequest } from "@databricks/sql/dist/contracts/IDBSQLClient.js";
import { parseBackendBUri } from "./databricks-uri.js";
import { trimSecret } from "../../driver/secret-redaction.js";
import type { BackendBSettings } from "./databricks-settings.js";

/** Environment variable naming a PEM file with an extra CA to trust (self-hosted proxies, test stand-ins). */
export const CA_CERT_ENV = "BACKEND_B_CA_CERT";

const DEFAULT_PORT = 443;
export const RETRY_MAX_ATTEMPTS = 3;
export const SOCKET_TIMEOUT_MS = 120_000;

/** Where the connection goes (no secrets: safe for messages). */
export interface DatabricksEndpoint {
  readonly host: string;
  readonly port: number;
  readonly path: string;
}

export interface DatabricksDriverOptions {
  /** Overrides `BACKEND_B_CA_CERT`: PEM text or bytes of an extra CA to trust. */
  readonly customCaCert?: string | Buffer;
}

export function endpointOf(settings: BackendBSettings): DatabricksEndpoint {
  let { host, port, httpPath } = settings;
  if ((host === undefined || httpPath === undefined) && settings.uri !== undefined) {
    const parts = parseBackendBUri(settings.uri.reveal());
    if (!("problem" in parts)) {
      host ??= parts.host;
      port ??= parts.port;
      httpPath ??= parts.httpPath;
    }
  }
  if (host === undefined || host === "") throw new Error("backend_b: no host configured");
  if (httpPath === undefined || httpPath === "") throw new Error("backend_b: no http_path configured");
  return { host, port: port ?? DEFAULT_PORT, path: httpPath.startsWith("/") ? httpPath : `/${httpPath}` };
}

/** The secrets the settings carry, so error messages can be scrubbed of them. */
export function secretsOf(settings: BackendBSettings): string[] {
  const values = [
    settings.token?.reveal(),
    settings.clientSecret?.reveal(),
    settings.uri?.reveal(),
    settings.password?.reveal(),
  ];
  if (settings.uri !== undefined) {
    const parts = parseBackendBUri(settings.uri.reveal());
    if (!("problem" in parts)) values.push(parts.token);
  }
  return values.filter((v): v is string => v !== undefined && v.length > 0);
}

export function connectOptionsOf(settings: BackendBSettings, options: DatabricksDriverOptions = {}): ConnectionOptions {
  const endpoint = endpointOf(settings);
  const caCert = options.customCaCert ?? readCaCertFromEnv();
  const common = {
    host: endpoint.host,
    port: endpoint.port,
    path: endpoint.path,
    userAgentEntry: "lib",
    socketTimeout: settings.socketTimeout ?? SOCKET_TIMEOUT_MS,
    retryMaxAttempts: RETRY_MAX_ATTEMPTS,
    retryDelayMin: 100,
    retryDelayMax: 1_000,
    retriesTimeout: 30_000,
    preserveBigNumericPrecision: true,
    enableMetricViewMetadata: true,
    telemetryEnabled: false,
    ...(caCert === undefined ? {} : { customCaCert: caCert }),
  };
  if (settings.authType !== undefined) {
    return {
      ...common,
      authType: "databricks-oauth",
      ...(settings.clientId === undefined ? {} : { oauthClientId: settings.clientId }),
      ...(settings.authType === "OAuthM2M" && settings.clientSecret !== undefined
        ? { oauthClientSecret: settings.clientSecret.reveal() }
        : {}),
      // Azure hosts: Entra ID (with this tenant, else `organizations`) unless Databricks' own OAuth is asked for.
      ...(settings.azureTenantId === undefined ? {} : { azureTenantId: settings.azureTenantId }),
      ...(settings.useDatabricksOAuthInAzure === true ? { useDatabricksOAuthInAzure: true } : {}),
    } as ConnectionOptions;
  }
  const token = settings.token?.reveal() ?? tokenFromUri(settings);
  if (token === undefined) throw new Error("backend_b: no token configured");
  // Sent as `Authorization: Bearer <token>`: a header loses edge whitespace (a secrets file's final newline).
  return { ...common, authType: "access-token", token: trimSecret(token) } as ConnectionOptions;
}

/**
 * Sessions run in UTC whatever the warehouse's default `TIMEZONE`: TIMESTAMP_NTZ values are UTC wall
 * clocks in `lib` (results are read that way, on every backend), and Databricks converts between
 * TIMESTAMP_NTZ and TIMESTAMP (a `Date` parameter, an instant) in the session time zone, so any
 * other zone would shift filters on NTZ columns and column-based TIMESTAMP text.
 */
export const SESSION_CONFIGURATION: Readonly<Record<string, string>> = Object.freeze({ TIMEZONE: "UTC" });

export function sessionRequestOf(settings: BackendBSettings): OpenSessionRequest {
  return {
    ...(settings.catalog === undefined ? {} : { initialCatalog: settings.catalog }),
    ...(settings.schema === undefined ? {} : { initialSchema: settings.schema }),
    configuration: { ...SESSION_CONFIGURATION },
  };
}

function tokenFromUri(settings: BackendBSettings): string | undefined {
  if (settings.uri === undefined) return undefined;
  const parts = parseBackendBUri(settings.uri.reveal());
  return "problem" in parts ? undefined : parts.token;
}

function readCaCertFromEnv(): Buffer | undefined {
  const path = process.env[CA_CERT_ENV];
  if (path === undefined || path === "") return undefined;
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(
      `${CA_CERT_ENV}: cannot read the CA certificate file ${JSON.stringify(path)}: ${(error as Error).message}`,
    );
  }
}
