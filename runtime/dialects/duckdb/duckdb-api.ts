/**
 * `@duckdb/node-api`, loaded on first use rather than at `import "lib"`: it loads DuckDB's native
 * library (tens of MB), which a Snowflake- or Databricks-only user, or code that only compiles
 * queries, never needs. It is an optional peer dependency; a missing install names the package.
 */
import type * as DuckDBApiModule from "@duckdb/node-api";
import { requirePeer } from "../../packages/peer-package.js";

export type DuckDBApi = typeof DuckDBApiModule;

let api: DuckDBApi | undefined;

export function duckdb(): DuckDBApi {
  return (api ??= requirePeer<DuckDBApi>({ name: "@duckdb/node-api", usedFor: "backend_c (DuckDB)" }));
}
