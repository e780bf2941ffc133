/**
 * The configuration schema as data: the fields every backend shares here, each dialect's own fields
 * in its folder (`runtime/dialects/<warehouse>/<warehouse>-fields.ts`), with TOML name, camelCase
 * name (config objects and resolved settings), type, default, secrecy and meaning. Resolution,
 * validation, the config-object input types and the README reference table are all derived from
 * these tables, so a field is added in exactly one place.
 */
import { MAX_TIMER_MS } from "../driver/deadline.js";

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
  readonly description: string;
}

export const COMMON_FIELDS = [
  {
    toml: "type",
    camel: "type",
    // Its values are the keys of DIALECTS (runtime/dialects/dialects.ts), checked by readBackendType.
    kind: "enum",
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

/** Where a dialect's fields fall back to the environment: `<envPrefix><FIELD>`, or `<FIELD>` for `unprefixedEnv`. */
export interface EnvFallback {
  /** `BACKEND_A_`, ... (README "Configuration reference"). */
  readonly envPrefix: string;
  /** TOML names read from an unprefixed variable (`schema` → `SCHEMA`). */
  readonly unprefixedEnv?: readonly string[];
}

/** A dialect's fields with the common ones merged in, common fields first. */
export function withCommonFields<Specific extends readonly FieldSpec[]>(specific: Specific): WithCommon<Specific> {
  const overridden = new Set(specific.map((f) => f.toml));
  // A backend-specific entry replaces the common one of the same name (backend C's `database`).
  const common: readonly FieldSpec[] = COMMON_FIELDS;
  return Object.freeze([
    ...common.filter((f) => !overridden.has(f.toml)),
    ...specific,
  ]) as unknown as WithCommon<Specific>;
}

/** One field by TOML name; throws for a name the table does not have (a bug, not user input). */
export function fieldIn(fields: readonly FieldSpec[], toml: string): FieldSpec {
  const spec = fields.find((f) => f.toml === toml);
  if (spec === undefined) throw new Error(`no field ${toml}`);
  return spec;
}

/** The environment variable a field falls back to, or undefined (`type`). */
export function envVarName(fallback: EnvFallback, field: FieldSpec): string | undefined {
  if (field.env === "none") return undefined;
  if (fallback.unprefixedEnv?.includes(field.toml) === true) return field.toml.toUpperCase();
  return fallback.envPrefix + field.toml.toUpperCase();
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
/** The merged field list type of a dialect (`BackendAFields`, ...). */
export type WithCommon<Specific extends readonly FieldSpec[]> = readonly (
  Exclude<CommonField, { readonly toml: Specific[number]["toml"] }> | Specific[number]
)[];
