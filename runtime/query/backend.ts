import type { BackendType } from "../config/types.js";

/**
 * The three warehouse dialects, named as in the configuration (`type = "backend_a"`).
 * backend_a: Snowflake semantic views; backend_b: Databricks metric views; backend_c: DuckDB.
 */
export type Backend = BackendType;
export const BACKENDS: readonly Backend[] = Object.freeze(["backend_a", "backend_b", "backend_c"]);

export function isBackend(value: unknown): value is Backend {
  return typeof value === "string" && (BACKENDS as readonly string[]).includes(value);
}
