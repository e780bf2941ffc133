/**
 * The resolution pipeline shared by TOML sections and config objects:
 * explicit values (converted and checked) → environment fallback → defaults → cross-field rules →
 * frozen settings with secrets wrapped in `Secret`.
 */
import { aTypeName, type ConfigContext } from "./config-context.js";
import { convertEnv, convertInput } from "./convert.js";
import { envVarName, type FieldSpec } from "./fields.js";
import { ResolvedValues } from "./resolved-values.js";
import { Secret } from "./secret.js";
import { closestFieldName, normalizeName } from "../text/suggest.js";
import type { ConfigurableBackend, ResolvedSettings } from "./dialect-config.js";

/**
 * Resolve the fields of one connection of a known backend. `input` holds the fields as written
 * (without `type`), keyed in the context's spelling; keys whose value is `undefined` count as absent.
 * `backends` are all of them, for the hint that a field belongs to another backend.
 */
export function resolveConnection(
  backend: ConfigurableBackend,
  input: Readonly<Record<string, unknown>>,
  ctx: ConfigContext,
  backends: readonly ConfigurableBackend[],
): ResolvedSettings {
  const type = backend.name;
  const fields = backend.config.fields.filter((f) => f.toml !== "type");
  const byName = new Map(fields.map((f) => [ctx.nameOf(f), f]));
  const values = new ResolvedValues();

  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const field = byName.get(key);
    if (field === undefined) throw unknownField(backend, key, ctx, backends);
    values.set(field, convertInput(field, value, ctx), { kind: "input" });
  }

  const config = backend.config;
  const rules = config.rules;
  const explicit = new Set([...values.entries()].map((e) => e.field.toml));
  const skip = rules.skipEnv?.(explicit) ?? new Set<string>();
  for (const field of fields) {
    if (values.has(field.toml) || skip.has(field.toml)) continue;
    const variable = envVarName(config, field);
    const text = variable === undefined ? undefined : ctx.env[variable];
    // An empty variable counts as unset (as `FOO=` in a shell or compose file usually means).
    if (variable === undefined || text === undefined || text === "") continue;
    values.set(field, convertEnv(field, text, variable, ctx), { kind: "env", variable });
  }

  rules.applyDefaults?.(values, ctx);
  for (const field of fields) {
    if (!values.has(field.toml) && field.default !== undefined) values.set(field, field.default, { kind: "default" });
  }

  const derived = rules.validate(values, ctx) ?? {};
  const settings: Record<string, unknown> = { type };
  for (const field of fields) {
    const value = values.get(field.toml);
    if (value === undefined) continue;
    settings[field.camel] = field.secret === true && typeof value === "string" ? new Secret(value) : value;
  }
  Object.assign(settings, derived);
  return Object.freeze(settings);
}

/**
 * Read and check `type`, the one field that must be present and decides all others: the backend it
 * names. `fields`: the section's other fields, for a hint when a backend name sits under another key.
 */
export function readBackendType(
  raw: unknown,
  ctx: ConfigContext,
  backends: readonly ConfigurableBackend[],
  fields: Readonly<Record<string, unknown>> = {},
): ConfigurableBackend {
  const allowed = backends.map((b) => `"${b.name}"`).join(", ");
  if (raw === undefined) {
    // Never a secret field's value, even one that happens to read like a backend name.
    const secret = (key: string) =>
      backends.some((b) => b.config.fields.some((f) => f.secret === true && (f.toml === key || f.camel === key)));
    const misplaced = Object.entries(fields).find(
      ([key, value]) => !secret(key) && backends.some((b) => b.name === value),
    );
    const hint =
      misplaced === undefined
        ? ""
        : `; did you mean type = ${JSON.stringify(misplaced[1])} instead of ${misplaced[0]} = ${JSON.stringify(misplaced[1])}?`;
    throw ctx.fail("type", `is required: one of ${allowed}${hint}`);
  }
  const backend = typeof raw === "string" ? backends.find((b) => b.name === raw) : undefined;
  if (backend === undefined) {
    const shown = typeof raw === "string" ? JSON.stringify(raw) : aTypeName(raw);
    throw ctx.fail("type", `must be one of ${allowed}, got ${shown}`);
  }
  return backend;
}

function unknownField(
  backend: ConfigurableBackend,
  key: string,
  ctx: ConfigContext,
  backends: readonly ConfigurableBackend[],
) {
  const type = backend.name;
  const own = backend.config.fields;
  const ownNames = own.map((f) => ctx.nameOf(f));
  // The other spelling of a known field (`poolSize` in a TOML file, `pool_size` in a config object).
  const respelled = own.find((f) => normalizeName(f.toml) === normalizeName(key));
  if (respelled !== undefined) {
    return ctx.fail(key, `is not a known field; did you mean ${ctx.nameOf(respelled)}?`);
  }
  const elsewhere = backends.find(
    (other) =>
      other.name !== type && other.config.fields.some((f: FieldSpec) => normalizeName(f.toml) === normalizeName(key)),
  );
  if (elsewhere !== undefined) {
    return ctx.fail(key, `is a ${elsewhere.name} field; it is not accepted for type "${type}"`);
  }
  const suggestion = closestFieldName(key, ownNames);
  const hint = suggestion === undefined ? `known fields: ${ownNames.join(", ")}` : `did you mean ${suggestion}?`;
  return ctx.fail(key, `is not a known field for type "${type}"; ${hint}`);
}
