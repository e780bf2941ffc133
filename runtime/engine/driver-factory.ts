/**
 * The dialect seam: which driver opens connections for which backend. Each driver loads its
 * warehouse client lazily, so an engine costs nothing until it first connects.
 */
import type { BackendType, ConnectionSettings } from "../config/types.js";
import type { Driver } from "../driver/database-connection.js";
import { DatabricksDriver } from "../dialects/databricks/databricks-driver.js";
import { DuckDBDriver } from "../dialects/duckdb/duckdb-driver.js";
import type { DuckDBDriverOptions } from "../dialects/duckdb/duckdb-driver.js";
import { SnowflakeDriver } from "../dialects/snowflake/snowflake-driver.js";

export type DriverFactory = (settings: ConnectionSettings) => Driver;

type SettingsOf<B extends BackendType> = Extract<ConnectionSettings, { type: B }>;

const factories = new Map<BackendType, DriverFactory>([
  ["backend_a", (settings) => new SnowflakeDriver(settings as SettingsOf<"backend_a">)],
  ["backend_b", (settings) => new DatabricksDriver(settings as SettingsOf<"backend_b">)],
  ["backend_c", (settings) => new DuckDBDriver(settings as SettingsOf<"backend_c">)],
]);

/** Replaces the driver factory of a backend (e.g. to wrap a driver for instrumentation). */
export function registerDriverFactory(backend: BackendType, factory: DriverFactory): void {
  factories.set(backend, factory);
}

export function createDriver(settings: ConnectionSettings, duckdb: DuckDBDriverOptions = {}): Driver {
  if (settings.type === "backend_c" && Object.keys(duckdb).length > 0) return new DuckDBDriver(settings, duckdb);
  return factories.get(settings.type)!(settings);
}
