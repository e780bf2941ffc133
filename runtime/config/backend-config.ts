/**
 * Shared behaviour of the config objects (`BackendAConfig`, ...): validation through the same
 * pipeline as TOML sections (source named after the class, fields in camelCase), environment
 * fallback, and printing that never shows a secret.
 */
import { inspect } from "node:util";
import { ConfigContext, type Environment } from "./config-context.js";
import { resolveConnection, type SettingsFor } from "./resolve-connection.js";
import { Secret } from "./secret.js";
import type { BackendType } from "../dialects/dialects.js";
import { DIALECTS } from "../dialects/dialects.js";

export interface ConfigObjectOptions {
  /** Where fields left out fall back from (`BACKEND_C_DATABASE`, ...). Default `process.env`. */
  readonly env?: Environment | undefined;
}

export abstract class BackendConfig<T extends BackendType> {
  /** The resolved, validated, frozen settings (durations in ms, secrets as `Secret`). */
  readonly settings: SettingsFor<T>;

  protected constructor(type: T, input: object, options: ConfigObjectOptions) {
    this.settings = resolveConfigObject(type, input, options, new.target.name);
    Object.freeze(this);
  }

  /** The backend this config object is for. */
  get type(): T {
    return this.settings.type as T;
  }

  /** `BackendCConfig { type: "backend_c", database: ":memory:", poolSize: 1, ... }`, secrets as [redacted]. */
  toString(): string {
    const parts = Object.entries(this.settings).map(([key, value]) => `${key}: ${show(value)}`);
    return `${this.constructor.name} { ${parts.join(", ")} }`;
  }

  /** The settings as JSON-ready data, secrets as "[redacted]". */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(this.settings).map(([key, value]) => [key, value instanceof Secret ? value.toJSON() : value]),
    );
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/**
 * What constructing the backend's config class does, without the class (`lib codegen` opens a
 * database file this way): checks, environment fallback, resolution, errors named after the class.
 */
export function resolveConfigObject<T extends BackendType>(
  type: T,
  input: object,
  options: ConfigObjectOptions = {},
  className: string = DIALECTS[type].config.className,
): SettingsFor<T> {
  const ctx = new ConfigContext(className, "camel", options.env ?? process.env);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw ctx.failSource(`expects an object of camelCase fields, got ${input === null ? "null" : typeof input}`);
  }
  const fields: Record<string, unknown> = { ...input };
  if (fields["type"] !== undefined) {
    throw ctx.fail("type", `is not accepted: ${className} is always type "${type}"`);
  }
  delete fields["type"];
  return resolveConnection(type, fields, ctx);
}

function show(value: unknown): string {
  return value instanceof Secret ? String(value) : inspect(value);
}
