/** The values of one connection while it is being resolved, keyed by TOML name, with their origin. */
import type { ConfigContext, ValueOrigin } from "./config-context.js";
import type { FieldValue } from "./convert.js";
import type { FieldSpec } from "./fields.js";

export interface ResolvedEntry {
  readonly field: FieldSpec;
  readonly value: FieldValue;
  readonly origin: ValueOrigin;
}

export class ResolvedValues {
  readonly #entries = new Map<string, ResolvedEntry>();

  set(field: FieldSpec, value: FieldValue, origin: ValueOrigin): void {
    this.#entries.set(field.toml, { field, value, origin });
  }

  has(toml: string): boolean {
    return this.#entries.has(toml);
  }

  entry(toml: string): ResolvedEntry | undefined {
    return this.#entries.get(toml);
  }

  get(toml: string): FieldValue | undefined {
    return this.#entries.get(toml)?.value;
  }

  string(toml: string): string | undefined {
    const value = this.get(toml);
    return typeof value === "string" ? value : undefined;
  }

  /** A field's name for a message, naming the variable when its value came from the environment. */
  describe(field: FieldSpec, ctx: ConfigContext): string {
    const entry = this.#entries.get(field.toml);
    return entry === undefined ? ctx.nameOf(field) : ctx.describe(entry.field, entry.origin);
  }

  entries(): IterableIterator<ResolvedEntry> {
    return this.#entries.values();
  }
}

/** Backend-specific steps of resolution: which env fallbacks to skip, dependent defaults, cross-field rules. */
export interface BackendRules {
  /** TOML names whose environment fallback is skipped, given the fields the input set explicitly. */
  skipEnv?(explicit: ReadonlySet<string>): ReadonlySet<string>;
  /**
   * Defaults that depend on other values or on where they came from (backend C `pool_size`,
   * `create_if_missing`), applied before the table defaults.
   */
  applyDefaults?(values: ResolvedValues, ctx: ConfigContext): void;
  /** Cross-field validation; may return settings derived from the values (backend B `uri`). */
  validate(values: ResolvedValues, ctx: ConfigContext): Readonly<Record<string, unknown>> | void;
}
