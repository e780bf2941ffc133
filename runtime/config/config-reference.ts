/**
 * The README's configuration reference, generated from the field tables
 * (`npx tsx scripts/gen-config-docs.ts` rewrites it; a test fails when it is stale).
 */
import {
  BACKEND_A_FIELDS,
  BACKEND_B_FIELDS,
  BACKEND_C_FIELDS,
  COMMON_FIELDS,
  ENV_PREFIX,
  envVarName,
  type FieldSpec,
} from "./fields.js";
import { BACKEND_B_UNHONOURED } from "./backend-b-unhonoured.js";
import type { BackendType } from "./types.js";

export const REFERENCE_START = "<!-- config-reference:start -->";
export const REFERENCE_END = "<!-- config-reference:end -->";

const INTRO = [
  "Connections live in `.lib.toml` (or the `configPath` option) as `[connections.<name>]` tables; `type` is required and decides",
  "which fields exist. A field left out is read from the environment variable shown (`<PREFIX>` is `BACKEND_A_`, `BACKEND_B_`",
  "or `BACKEND_C_`); a value in the file wins, an empty variable counts as unset, and `type` never comes from the environment.",
  "Environment values are converted to the field's type (booleans: `true`/`false`/`1`/`0`/`yes`/`no`).",
  "Durations are strings of `<number><unit>` terms, units `h`, `m`, `s`, `ms` from largest to smallest, each at most once",
  "(`300ms`, `1m30s`, `1h2m3.5s`); a bare number is rejected. Secret fields are held as `Secret` and never printed, not even in",
  'error messages. Config objects (`new BackendCConfig({ database: ":memory:", poolSize: 1 })`) take the same fields in',
  "camelCase (strings for secrets and durations), go through the same validation and environment fallback, and expose the",
  "result as `config.settings`.",
].join("\n");

/** The generated markdown between the README markers (without the markers). */
export function renderConfigReference(): string {
  const sections = [
    INTRO,
    table("Fields of every connection type", COMMON_FIELDS, undefined),
    table('Backend A (`type = "backend_a"`)', BACKEND_A_FIELDS, "backend_a"),
    table('Backend B (`type = "backend_b"`)', BACKEND_B_FIELDS, "backend_b"),
    "Backend B takes either `uri` or `host` + `http_path` + `token` (with `auth_type` OAuthU2M/OAuthM2M, `host` + `http_path`;\n" +
      "OAuthM2M also needs `client_id` and `client_secret`). Setting `uri` with `host`, `http_path`, `token` or `port` is rejected as\n" +
      "ambiguous; when the file sets fields of one mode, environment variables of the other mode are ignored.\n" +
      "Accepted on backend B but not honoured (creating the engine emits a `process` warning, code `LIB_BACKEND_B_UNHONOURED_FIELD`, once):\n" +
      BACKEND_B_UNHONOURED.map(
        (f) => `${f.toml === "protocol" ? '`protocol = "http"`' : code(f.toml)} → use ${f.instead}`,
      ).join("; ") +
      ".",
    table('Backend C (`type = "backend_c"`)', BACKEND_C_FIELDS, "backend_c"),
    'With `database = ":memory:"` every connection is its own database: `pool_size` defaults to 1 and a larger value is rejected,\n' +
      "an explicit `max_overflow` above 0 is rejected (the default 3 is not applied); `read_only = true` needs a database file.\n" +
      "`schema` becomes every connection's current schema (`SET schema`); an in-memory database creates it, a database file must have it.",
  ];
  return sections.join("\n\n");
}

/** `readme` with the text between the markers replaced by `block`. Throws when a marker is missing. */
export function spliceConfigReference(readme: string, block: string): string {
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`README needs ${REFERENCE_START} followed by ${REFERENCE_END}`);
  return `${readme.slice(0, start + REFERENCE_START.length)}\n${block}\n${readme.slice(end)}`;
}

function table(title: string, fields: readonly FieldSpec[], backend: BackendType | undefined): string {
  const header = [
    "| TOML field | config object | type | default | environment | description |",
    "|---|---|---|---|---|---|",
  ];
  const rows = fields.map((f) =>
    row([
      code(f.toml),
      f.toml === "type" ? "(implied by the class)" : code(f.camel),
      typeText(f),
      defaultText(f),
      envText(f, backend),
      f.description,
    ]),
  );
  return [`### ${title}`, "", ...header, ...rows].join("\n");
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
}

function code(text: string): string {
  return `\`${text}\``;
}

function typeText(f: FieldSpec): string {
  let text: string = f.kind;
  if (f.kind === "enum") text = (f.values ?? []).map((v) => code(`"${v}"`)).join(", ");
  if (f.kind === "integer") {
    if (f.max !== undefined) text = `integer ${f.min ?? 0}..${f.max}`;
    else if (f.min !== undefined) text = `integer >= ${f.min}`;
    if (f.toml === "timeout" || f.toml === "recycle" || f.toml === "dispose_timeout") text += " (seconds)";
  }
  if (f.kind === "duration") text = "duration string";
  if (f.pattern !== undefined) text += ` (${f.patternDoc ?? String(f.pattern)})`;
  return f.secret === true ? `${text}, secret` : text;
}

function defaultText(f: FieldSpec): string {
  if (f.defaultDoc !== undefined) return f.defaultDoc;
  if (f.default === undefined) return "none";
  return typeof f.default === "string" ? code(f.default) : code(String(f.default));
}

function envText(f: FieldSpec, backend: BackendType | undefined): string {
  if (backend !== undefined) return code(envVarName(backend, f) ?? "");
  if (f.env === "none") return "never";
  const upper = f.toml.toUpperCase();
  if (f.unprefixedEnvOn !== undefined && f.unprefixedEnvOn.length > 0) {
    const others = (Object.keys(ENV_PREFIX) as BackendType[]).filter((b) => !f.unprefixedEnvOn?.includes(b));
    return [
      `${code(upper)} (${f.unprefixedEnvOn.map(letter).join(", ")})`,
      ...others.map((b) => `${code(ENV_PREFIX[b] + upper)} (${letter(b)})`),
    ].join(", ");
  }
  return code(`<PREFIX>${upper}`);
}

function letter(backend: BackendType): string {
  return backend.replace("backend_", "").toUpperCase();
}
