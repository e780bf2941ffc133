/**
 * Backend B: exactly one of two modes. URI mode (`uri`) or decomposed mode (`host` + `http_path` +
 * `token`); setting `uri` together with `host`, `http_path`, `token` or `port` is ambiguous and
 * rejected. The file decides the mode: when the section sets fields of one mode, environment
 * variables of the other mode are ignored. OAuth `auth_type`s replace the token.
 */
import type { ConfigContext } from "../../config/config-context.js";
import { BACKEND_B_URI_FORM, parseBackendBUri } from "./databricks-uri.js";
import { fieldIn, type FieldSpec } from "../../config/fields.js";
import { BACKEND_B_ALL_FIELDS } from "./databricks-fields.js";
import type { BackendRules, ResolvedValues } from "../../config/resolved-values.js";
import { Secret } from "../../config/secret.js";
import { trimSecret } from "../../driver/secret-redaction.js";

const URI_DERIVED = ["host", "http_path", "token", "port"] as const;

const field = (toml: string): FieldSpec => fieldIn(BACKEND_B_ALL_FIELDS, toml);

/**
 * The token travels in an HTTP header, which loses edge whitespace (the driver trims it: a secrets
 * file's final newline is harmless) and cannot carry a control character at all.
 */
const HEADER_PROBLEM =
  "holds a control character (NUL, or a line break inside the token) that no HTTP header can carry (value hidden: secret field)";
const unsendable = (token: string): boolean => /[\x00-\x08\x0a-\x1f\x7f]/.test(trimSecret(token));

export const databricksRules: BackendRules = {
  skipEnv(explicit: ReadonlySet<string>): ReadonlySet<string> {
    if (explicit.has("uri")) return new Set(URI_DERIVED);
    if (URI_DERIVED.some((name) => explicit.has(name))) return new Set(["uri"]);
    return new Set();
  },

  validate(values: ResolvedValues, ctx: ConfigContext): Readonly<Record<string, unknown>> | void {
    const name = (toml: string) => values.describe(field(toml), ctx);
    const authType = values.get("auth_type");
    if (authType === "OAuthM2M") {
      for (const required of ["client_id", "client_secret"]) {
        if (!values.has(required))
          throw ctx.fail(field(required), `is required when ${name("auth_type")} is "OAuthM2M"`);
      }
    }

    if (values.get("use_databricks_oauth_in_azure") === true && values.has("azure_tenant_id")) {
      throw ctx.fail(
        field("azure_tenant_id"),
        `is for Entra ID OAuth and cannot be used with ${name("use_databricks_oauth_in_azure")} = true`,
      );
    }

    const uri = values.entry("uri");
    if (uri !== undefined) {
      const clash = URI_DERIVED.find((toml) => values.has(toml));
      if (clash !== undefined) {
        throw ctx.fail(
          field(clash),
          `is ambiguous together with ${name("uri")}: use either ${ctx.nameOf(field("uri"))} or ` +
            `${ctx.nameOf(field("host"))} + ${ctx.nameOf(field("http_path"))} + ${ctx.nameOf(field("token"))}, not both`,
          values.entry(clash)?.origin,
        );
      }
      const parts = parseBackendBUri(String(uri.value));
      if ("problem" in parts) {
        throw ctx.fail(
          uri.field,
          `${parts.problem}; expected the form ${BACKEND_B_URI_FORM} (value hidden: secret field)`,
          uri.origin,
        );
      }
      if (unsendable(parts.token)) throw ctx.fail(uri.field, HEADER_PROBLEM, uri.origin);
      // The driver takes host/port/path/token; derive them so it never parses the uri itself.
      return { host: parts.host, port: parts.port, httpPath: parts.httpPath, token: new Secret(parts.token) };
    }

    const token = values.entry("token");
    if (token !== undefined && typeof token.value === "string" && unsendable(token.value)) {
      throw ctx.fail(token.field, HEADER_PROBLEM, token.origin);
    }
    const required = authType === undefined ? ["host", "http_path", "token"] : ["host", "http_path"];
    for (const toml of required) {
      if (!values.has(toml)) {
        const oauth =
          authType === undefined ? "" : ` (${name("auth_type")} "${String(authType)}" replaces only the token)`;
        throw ctx.fail(
          field(toml),
          `is required: set ${ctx.nameOf(field("uri"))}, or ${ctx.nameOf(field("host"))} + ` +
            `${ctx.nameOf(field("http_path"))} + ${ctx.nameOf(field("token"))}${oauth}`,
        );
      }
    }
  },
};
