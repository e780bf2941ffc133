/**
 * The README's configuration reference, generated from the field tables
 * (`npx tsx scripts/gen-config-docs.ts` rewrites it; a test fails when it is stale).
 */
import { COMMON_FIELDS, envVarName, type FieldSpec } from "../config/fields.js";
import type { Dialect } from "./dialect.js";
import { BACKENDS, DIALECTS } from "./dialects.js";

export const REFERENCE_START = "<!-- config-reference:start -->";
export const REFERENCE_END = "<!-- config-reference:end -->";

const dialects = (): readonly Dialect[] => BACKENDS.map((b) => DIALECTS[b]);

function intro(): string {
  const prefixes = dialects().map((d) => code(d.config.envPrefix));
  const prefixList = `${prefixes.slice(0, -1).join(", ")} or ${prefixes.at(-1) ?? ""}`;
  return [
    "Connections live in `.lib.toml` (or the `configPath` option) as `[connections.<name>]` tables; `type` is required and decides",
    `which fields exist. A field left out is read from the environment variable shown (\`<PREFIX>\` is ${prefixList});`,
    "a value in the file wins, an empty variable counts as unset, and `type` never comes from the environment.",
    "Environment values are converted to the field's type (booleans: `true`/`false`/`1`/`0`/`yes`/`no`).",
    "Durations are strings of `<number><unit>` terms, units `h`, `m`, `s`, `ms` from largest to smallest, each at most once",
    "(`300ms`, `1m30s`, `1h2m3.5s`); a bare number is rejected. Secret fields are held as `Secret` and never printed, not even in",
    'error messages. Config objects (`new BackendCConfig({ database: ":memory:", poolSize: 1 })`) take the same fields in',
    "camelCase (strings for secrets and durations), go through the same validation and environment fallback, and expose the",
    "result as `config.settings`.",
  ].join("\n");
}

/** The generated markdown between the README markers (without the markers). */
export function renderConfigReference(): string {
  const sections = [intro(), table("Fields of every connection type", COMMON_FIELDS, undefined)];
  for (const dialect of dialects()) {
    sections.push(table(`${dialect.label} (\`type = "${dialect.name}"\`)`, dialect.config.ownFields, dialect));
    if (dialect.config.referenceNotes !== undefined) sections.push(dialect.config.referenceNotes);
  }
  return sections.join("\n\n");
}

/** `readme` with the text between the markers replaced by `block`. Throws when a marker is missing. */
export function spliceConfigReference(readme: string, block: string): string {
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`README needs ${REFERENCE_START} followed by ${REFERENCE_END}`);
  return `${readme.slice(0, start + REFERENCE_START.length)}\n${block}\n${readme.slice(end)}`;
}

function table(title: string, fields: readonly FieldSpec[], dialect: Dialect | undefined): string {
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
      envText(f, dialect),
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
  // `type` takes the backend names, the keys of DIALECTS.
  const values = f.toml === "type" ? BACKENDS : (f.values ?? []);
  if (f.kind === "enum") text = values.map((v) => code(`"${v}"`)).join(", ");
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

function envText(f: FieldSpec, dialect: Dialect | undefined): string {
  if (dialect !== undefined) return code(envVarName(dialect.config, f) ?? "");
  if (f.env === "none") return "never";
  const upper = f.toml.toUpperCase();
  const unprefixed = dialects().filter((d) => d.config.unprefixedEnv?.includes(f.toml) === true);
  if (unprefixed.length > 0) {
    const others = dialects().filter((d) => !unprefixed.includes(d));
    return [
      `${code(upper)} (${unprefixed.map(letter).join(", ")})`,
      ...others.map((d) => `${code(d.config.envPrefix + upper)} (${letter(d)})`),
    ].join(", ");
  }
  return code(`<PREFIX>${upper}`);
}

/** `A` of "Backend A". */
function letter(dialect: Dialect): string {
  return dialect.label.replace(/^Backend /, "");
}
