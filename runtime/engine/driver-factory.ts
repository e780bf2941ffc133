/**
 * The dialect seam: which driver opens connections for which backend. Backends A and B get their
 * drivers in a later issue; until then their engines are creatable (settings validated) but
 * opening a connection fails with a clear message, which checkout surfaces as LibConnectionError.
 */
import type { BackendType, ConnectionSettings } from "../config/types.js";
import type { DatabaseConnection, Driver } from "../driver/database-connection.js";
import { DuckDBDriver } from "../dialects/duckdb/duckdb-driver.js";
import type { DuckDBDriverOptions } from "../dialects/duckdb/duckdb-driver.js";
import { DatabricksDriver } from "../dialects/databricks/databricks-driver.js";
import { SnowflakeDriver } from "../dialects/snowflake/snowflake-driver.js";

export type DriverFactory = (settings: ConnectionSettings) => Driver;

/** A driver for a backend whose connector is not implemented yet. */
export class UnavailableDriver implements Driver {
  readonly #backend: BackendType;
  constructor(backend: BackendType) {
    this.#backend = backend;
  }
  async openConnection(): Promise<DatabaseConnection> {
    throw new Error(`No driver for ${this.#backend} is available yet in this version of lib: only backend_c (DuckDB) connects`);
  }
  async destroy(): Promise<void> {}
}

const factories = new Map<BackendType, DriverFactory>([
  ["backend_c", (settings) => new DuckDBDriver(settings as Extract<ConnectionSettings, { type: "backend_c" }>)],
  ["backend_b", (settings) => new DatabricksDriver(settings as Extract<ConnectionSettings, { type: "backend_b" }>)],
  ["backend_a", (settings) => new SnowflakeDriver(settings as Extract<ConnectionSettings, { type: "backend_a" }>)],
]);

/** Installs the driver factory for a backend (how the backend A/B drivers plug in). */
export function registerDriverFactory(backend: BackendType, factory: DriverFactory): void {
  factories.set(backend, factory);
}

export function createDriver(settings: ConnectionSettings, duckdb: DuckDBDriverOptions = {}): Driver {
  if (settings.type === "backend_c" && Object.keys(duckdb).length > 0) return new DuckDBDriver(settings, duckdb);
  const factory = factories.get(settings.type);
  return factory ? factory(settings) : new UnavailableDriver(settings.type);
}
