/**
 * `createEngine` / `createAsyncEngine`: settings from a `.lib.toml` section or a config object,
 * validated eagerly (`ValidationError`), a driver for the backend, a lazily filled pool, and
 * optionally a registry name (the section name, or `"default"` for a config object).
 */
import { resolveSettings } from "../dialects/resolve-settings.js";
import type { BackendConfigObject } from "../dialects/resolve-settings.js";
import type { Driver } from "../driver/driver.js";
import { LibConnectionError, ValidationError } from "../errors.js";
import { dateRangeOptionsProblem, type DateRangeOptions } from "../operation-node/date-range-node.js";
import { createDriver, dialectOf, type ConnectionSettings, type DialectDriverOptions } from "../dialects/dialects.js";
import { Engine } from "./engine.js";
import type { EngineInternals } from "./engine.js";
import { DEFAULT_ENGINE_NAME, register } from "./registry.js";
import { instrumentDriver } from "../observability/instrumented-driver.js";
import type { EngineLogger } from "../observability/log-event.js";
import { Observer } from "../observability/observer.js";

export interface CreateEngineOptions {
  /** The TOML file read for a connection name (default `.lib.toml`). Ignored for config objects. */
  readonly configPath?: string;
  /** Register the engine: under the connection name, or `"default"` for a config object. */
  readonly register?: boolean;
  /**
   * Called with every query (SQL, parameter count, duration, rows or error), connection open/close/
   * recycle and pool wait of this engine (README "Logging and tracing"). Never given a secret.
   */
  readonly log?: EngineLogger;
  /**
   * Defaults for the relative date ranges of queries run on this engine (`inLast()`, `inCurrent()`, ...):
   * `{ timeZone, weekStart, now }`; a condition's own options win. Built-in: UTC, Monday, the current instant.
   */
  readonly dateRanges?: DateRangeOptions;
}

/** Library-internal options (tests): an explicit driver, the dialect's driver options, pool tuning. */
export interface EngineFromSettingsOptions extends EngineInternals {
  /** Register under this name. */
  readonly name?: string | undefined;
  readonly driver?: Driver;
  /** Passed to the dialect's `createDriver` (backend C: the built-in semantic layer to use). */
  readonly driverOptions?: DialectDriverOptions;
  readonly log?: EngineLogger | undefined;
}

/**
 * Creates an engine. Synchronous: the configuration is validated now (`ValidationError`), but no
 * connection is opened until the first checkout.
 */
export function createEngine(
  nameOrConfig: string | BackendConfigObject = DEFAULT_ENGINE_NAME,
  options: CreateEngineOptions = {},
): Engine {
  const { settings, connectionName } = resolveSettings(nameOrConfig, { configPath: options.configPath ?? ".lib.toml" });
  const name = options.register === true ? (connectionName ?? DEFAULT_ENGINE_NAME) : undefined;
  const problem = dateRangeOptionsProblem(options.dateRanges);
  if (problem !== undefined) {
    throw new ValidationError(`createEngine(): dateRanges: ${problem}`, {
      source: "createEngine()",
      field: "dateRanges",
    });
  }
  return engineFromSettings(settings, { name, log: options.log, dateRanges: options.dateRanges });
}

/**
 * Like `createEngine`, but resolves only once one connection has been checked out and returned,
 * so a wrong path or an unreachable warehouse fails here (`LibConnectionError`; the engine is
 * disposed and unregistered again).
 */
export async function createAsyncEngine(
  nameOrConfig: string | BackendConfigObject = DEFAULT_ENGINE_NAME,
  options: CreateEngineOptions = {},
): Promise<Engine> {
  const engine = createEngine(nameOrConfig, options);
  try {
    const connection = await engine.connect();
    await connection.release();
    return engine;
  } catch (error) {
    await engine.dispose().catch(() => undefined);
    if (error instanceof LibConnectionError) throw error;
    throw new LibConnectionError(
      `Could not open the engine's first connection: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Library-internal: an engine from already-resolved settings. */
export function engineFromSettings(settings: ConnectionSettings, options: EngineFromSettingsOptions = {}): Engine {
  dialectOf(settings.type).adapter.checkEngineSettings?.(settings);
  const observer = new Observer(settings.type, options.log);
  const driver = instrumentDriver(options.driver ?? createDriver(settings, options.driverOptions), observer);
  const engine = new Engine(settings, driver, { ...options, observer });
  if (options.name !== undefined) {
    try {
      register(options.name, engine);
    } catch (error) {
      void engine.dispose();
      throw error;
    }
  }
  return engine;
}
