/**
 * Where the values being resolved come from, and how to word an error about them. Every config
 * error goes through {@link ConfigContext.fail}, so all of them name the source (file and section,
 * or config-object class) and the field in the spelling the user wrote it.
 */
import { ValidationError } from "../errors.js";
import type { FieldSpec } from "./fields.js";

/** An environment to read fallbacks from (`process.env` by default). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where a resolved value came from: the section / object itself, an environment variable, or a default. */
export type ValueOrigin =
  { readonly kind: "input" } | { readonly kind: "env"; readonly variable: string } | { readonly kind: "default" };

export class ConfigContext {
  constructor(
    /** `/path/.lib.toml [connections.default]` or `BackendCConfig`. */
    readonly source: string,
    /** Field spelling of this source: TOML sections use snake_case, config objects camelCase. */
    readonly naming: "toml" | "camel",
    readonly env: Environment,
  ) {}

  nameOf(field: FieldSpec): string {
    return this.naming === "toml" ? field.toml : field.camel;
  }

  /** The field's name, plus the variable when the value came from the environment. */
  describe(field: FieldSpec, origin: ValueOrigin = { kind: "input" }): string {
    const name = this.nameOf(field);
    return origin.kind === "env" ? `${name} (from environment variable ${origin.variable})` : name;
  }

  /** A ValidationError about one field: `<source>: <field> <problem>`. */
  fail(field: FieldSpec | string, problem: string, origin: ValueOrigin = { kind: "input" }): ValidationError {
    const name = typeof field === "string" ? field : this.nameOf(field);
    const subject = typeof field === "string" ? field : this.describe(field, origin);
    return new ValidationError(`${this.source}: ${subject} ${problem}`, { source: this.source, field: name });
  }

  /** A ValidationError about the source as a whole (no single field at fault). */
  failSource(problem: string): ValidationError {
    return new ValidationError(`${this.source}: ${problem}`, { source: this.source });
  }
}

/**
 * How a bad value may be shown in a message: never for a secret field; otherwise quoted and
 * shortened. Values of unknown fields are never shown either (a misspelled `pasword` is a secret).
 */
export function showValue(field: FieldSpec, value: unknown): string {
  if (field.secret === true) return "(value hidden: secret field)";
  return showPlain(value);
}

export function showPlain(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return aTypeName(value);
}

/** `an integer`, `a string`, `an array`. */
export function aTypeName(value: unknown): string {
  const name = typeName(value);
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** A value's type as a TOML / config author thinks of it. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "date";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  if (typeof value === "bigint") return "integer";
  if (typeof value === "object") return "table";
  return typeof value;
}
