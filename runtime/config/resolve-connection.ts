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
import type { BackendType } from "../dialects/dialects.js";
import type { SettingsOf } from "../dialects/dialect.js";
import { BACKENDS, DIALECTS } from "../dialects/dialects.js";

/** The resolved settings type of one backend. */
export type SettingsFor<T extends BackendType> = SettingsOf<(typeof DIALECTS)[T]>;

/** Every field a section of this backend accepts, common fields first. */
function fieldsFor(type: BackendType): readonly FieldSpec[] {
  return DIALECTS[type].config.fields;
}

/**
 * Resolve the fields of one connection of a known backend. `input` holds the fields as written
 * (without `type`), keyed in the context's spelling; keys whose value is `undefined` count as absent.
 */
export function resolveConnection<T extends BackendType>(
  type: T,
  input: Readonly<Record<string, unknown>>,
  ctx: ConfigContext,
): SettingsFor<T> {
  const fields = fieldsFor(type).filter((f) => f.toml !== "type");
  const byName = new Map(fields.map((f) => [ctx.nameOf(f), f]));
  const values = new ResolvedValues();

  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const field = byName.get(key);
    if (field === undefined) throw unknownField(type, key, ctx);
    values.set(field, convertInput(field, value, ctx), { kind: "input" });
  }

  const config = DIALECTS[type].config;
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

  rules.applyDefaults?.(values);
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
  return Object.freeze(settings) as unknown as SettingsFor<T>;
}

/** Read and check `type`, the one field that must be present and decides all others. */
export function readBackendType(raw: unknown, ctx: ConfigContext): BackendType {
  const allowed = BACKENDS.map((t) => `"${t}"`).join(", ");
  if (raw === undefined) throw ctx.fail("type", `is required: one of ${allowed}`);
  if (typeof raw !== "string" || !(BACKENDS as readonly string[]).includes(raw)) {
    const shown = typeof raw === "string" ? JSON.stringify(raw) : aTypeName(raw);
    throw ctx.fail("type", `must be one of ${allowed}, got ${shown}`);
  }
  return raw as BackendType;
}

function unknownField(type: BackendType, key: string, ctx: ConfigContext) {
  const own = fieldsFor(type);
  const ownNames = own.map((f) => ctx.nameOf(f));
  // The other spelling of a known field (`poolSize` in a TOML file, `pool_size` in a config object).
  const respelled = own.find((f) => normalizeName(f.toml) === normalizeName(key));
  if (respelled !== undefined) {
    return ctx.fail(key, `is not a known field; did you mean ${ctx.nameOf(respelled)}?`);
  }
  const elsewhere = BACKENDS.find(
    (other) => other !== type && fieldsFor(other).some((f: FieldSpec) => normalizeName(f.toml) === normalizeName(key)),
  );
  if (elsewhere !== undefined) {
    return ctx.fail(key, `is a ${elsewhere} field; it is not accepted for type "${type}"`);
  }
  const suggestion = closestFieldName(key, ownNames);
  const hint = suggestion === undefined ? `known fields: ${ownNames.join(", ")}` : `did you mean ${suggestion}?`;
  return ctx.fail(key, `is not a known field for type "${type}"; ${hint}`);
}
