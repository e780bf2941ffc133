/**
 * Common fields that SPEC accepts on every connection type but the backend B driver cannot use:
 * it authenticates with a token (or OAuth), always speaks HTTPS and names a catalog, not a database.
 * They stay valid (a shared `.lib.toml` keeps loading) but are never silent: creating the engine
 * warns once, naming each field and what to use instead.
 */
import type { BackendBSettings } from "./databricks-settings.js";

interface Unhonoured {
  readonly toml: "protocol" | "user" | "password" | "database";
  /** Whether this value is ignored (only `protocol = "http"` is; `https` is what the driver does anyway). */
  readonly ignored: (settings: BackendBSettings) => boolean;
  readonly instead: string;
}

export const BACKEND_B_UNHONOURED: readonly Unhonoured[] = [
  { toml: "protocol", ignored: (s) => s.protocol === "http", instead: "nothing: backend B always connects over https" },
  { toml: "user", ignored: (s) => s.user !== undefined, instead: "`token` or `auth_type`" },
  { toml: "password", ignored: (s) => s.password !== undefined, instead: "`token`" },
  { toml: "database", ignored: (s) => s.database !== undefined, instead: "`catalog`" },
];

export const BACKEND_B_UNHONOURED_WARNING_CODE = "LIB_BACKEND_B_UNHONOURED_FIELD";

/** The warning for the fields these settings set in vain, or undefined when there are none. */
export function unhonouredFieldsWarning(settings: BackendBSettings): string | undefined {
  const fields = BACKEND_B_UNHONOURED.filter((f) => f.ignored(settings));
  if (fields.length === 0) return undefined;
  // Names only, never values: `password` is a secret.
  const list = fields.map((f) => `\`${f.toml}\` (use ${f.instead})`).join(", ");
  return `backend B ignores ${list}`;
}

/** Emit the warning through Node's `process.emitWarning` (once per engine created). */
export function warnUnhonouredFields(settings: BackendBSettings): void {
  const message = unhonouredFieldsWarning(settings);
  if (message !== undefined) process.emitWarning(message, { code: BACKEND_B_UNHONOURED_WARNING_CODE });
}
