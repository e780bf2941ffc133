/**
 * Shared behaviour of the config objects (`BackendAConfig`, ...): validation through the same
 * pipeline as TOML sections (source named after the class, fields in camelCase), environment
 * fallback, and printing that never shows a secret.
 */
import { inspect } from "node:util";
import { ConfigContext, type Environment } from "./config-context.js";
import type { ConfigurableBackend, ResolvedSettings } from "./dialect-config.js";
import { resolveConnection } from "./resolve-connection.js";
import { Secret } from "./secret.js";

export interface ConfigObjectOptions {
  /** Where fields left out fall back from (`BACKEND_C_DATABASE`, ...). Default `process.env`. */
  readonly env?: Environment | undefined;
}

export abstract class BackendConfig<Settings extends { readonly type: string } = { readonly type: string }> {
  /** The resolved, validated, frozen settings (durations in ms, secrets as `Secret`). */
  readonly settings: Settings;

  /** `settings` come from the subclass, resolved for its backend (`resolveConfigObject` of runtime/dialects/). */
  protected constructor(settings: Settings) {
    this.settings = settings;
    Object.freeze(this);
  }

  /** The backend this config object is for. */
  get type(): Settings["type"] {
    return this.settings.type;
  }

  /** `BackendCConfig { type: "backend_c", database: ":memory:", poolSize: 1, ... }`, secrets as [redacted]. */
  toString(): string {
    const parts = Object.entries(this.settings as ResolvedSettings).map(([key, value]) => `${key}: ${show(value)}`);
    return `${this.constructor.name} { ${parts.join(", ")} }`;
  }

  /** The settings as JSON-ready data, secrets as "[redacted]". */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(this.settings as ResolvedSettings).map(([key, value]) => [
        key,
        value instanceof Secret ? value.toJSON() : value,
      ]),
    );
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/**
 * What constructing a backend's config class does: checks, environment fallback, resolution,
 * errors named after the class. `backends` are all of them (for the other-backend field hint).
 */
export function resolveConfigInput(
  backend: ConfigurableBackend,
  input: object,
  options: ConfigObjectOptions,
  className: string,
  backends: readonly ConfigurableBackend[],
): ResolvedSettings {
  const ctx = new ConfigContext(className, "camel", options.env ?? process.env);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw ctx.failSource(`expects an object of camelCase fields, got ${input === null ? "null" : typeof input}`);
  }
  const fields: Record<string, unknown> = { ...input };
  if (fields["type"] !== undefined) {
    throw ctx.fail("type", `is not accepted: ${className} is always type "${backend.name}"`);
  }
  delete fields["type"];
  return resolveConnection(backend, fields, ctx, backends);
}

function show(value: unknown): string {
  return value instanceof Secret ? String(value) : inspect(value);
}
