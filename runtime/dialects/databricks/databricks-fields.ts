/** The TOML/config-object fields of a `type = "backend_b"` section (README "Configuration reference"). */
import { withCommonFields, type FieldSpec, type WithCommon } from "../../config/fields.js";

export const BACKEND_B_AUTH_TYPES = ["OAuthU2M", "OAuthM2M"] as const;

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
    toml: "connect_timeout",
    camel: "connectTimeout",
    kind: "duration",
    defaultDoc: "`10s`",
    description:
      "Longest wait to establish a connection to the warehouse (TCP and TLS), separate from socket_timeout; `0s`: none",
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

/** Every field a section accepts, common fields first. */
export const BACKEND_B_ALL_FIELDS = withCommonFields(BACKEND_B_FIELDS);

export type BackendBFields = WithCommon<typeof BACKEND_B_FIELDS>;
