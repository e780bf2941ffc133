/**
 * The one list of backends: adding a warehouse is one folder (`runtime/dialects/<warehouse>/`,
 * with its `<warehouse>-dialect.ts`) and one line here. Everything else that differs per backend
 * asks the record (the repository's dialect-record architecture test keeps it so).
 */
import type { Driver } from "../driver/driver.js";
import type { SemanticQueryCompiler } from "../query-compiler/semantic-query-compiler.js";
import type { Dialect, DriverOptionsOf, SettingsOf } from "./dialect.js";
import { databricksDialect } from "./databricks/databricks-dialect.js";
import { duckdbDialect } from "./duckdb/duckdb-dialect.js";
import { snowflakeDialect } from "./snowflake/snowflake-dialect.js";

export const DIALECTS = Object.freeze({
  backend_a: snowflakeDialect,
  backend_b: databricksDialect,
  backend_c: duckdbDialect,
});

/** A backend's public name (`type = "backend_a"`): the keys of DIALECTS. */
export type BackendType = keyof typeof DIALECTS;

/** The settings of any backend: the union of every dialect's settings type. */
export type ConnectionSettings = { [B in BackendType]: SettingsOf<(typeof DIALECTS)[B]> }[BackendType];

/** The backend names in record order. */
export const BACKENDS: readonly BackendType[] = Object.freeze(Object.keys(DIALECTS) as BackendType[]);

/** Library-internal driver options of any backend (only backend C has some: its semantic layer). */
export type DialectDriverOptions = { [B in BackendType]: DriverOptionsOf<(typeof DIALECTS)[B]> }[BackendType];

export function isBackend(value: unknown): value is BackendType {
  return typeof value === "string" && Object.hasOwn(DIALECTS, value);
}

/** The dialect of a backend, seen through the settings-agnostic interface. */
export function dialectOf(backend: BackendType): Dialect<BackendType, ConnectionSettings, object> {
  // Each dialect reads only its own settings type; callers pass settings whose `type` chose it.
  const dialect: Dialect<BackendType, ConnectionSettings, object> | undefined = DIALECTS[backend];
  if (dialect === undefined) throw new RangeError(`Unknown backend ${JSON.stringify(backend)}`);
  return dialect;
}

/** A driver for the settings' backend (each loads its warehouse client lazily, on first connect). */
export function createDriver(settings: ConnectionSettings, options?: DialectDriverOptions): Driver {
  return dialectOf(settings.type).createDriver(settings, options);
}

/** A fresh compiler for `backend` (a compiler holds per-compilation state, so none is shared). */
export function compilerFor(backend: BackendType): SemanticQueryCompiler {
  return dialectOf(backend).createQueryCompiler();
}

/** `backend C` for "Backend C": the dialect's label inside a sentence. */
export function labelInSentence(backend: BackendType): string {
  const label = dialectOf(backend).label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** `backend_a, backend_b or backend_c`: the names for a message, joined with `last` before the final one. */
export function listBackends(last: "or" | "and" = "or"): string {
  return BACKENDS.length < 2 ? BACKENDS.join("") : `${BACKENDS.slice(0, -1).join(", ")} ${last} ${BACKENDS.at(-1)}`;
}
