/**
 * The process-wide engine registry: queries without `.using()` find their engine here under
 * `"default"`. Registering a taken name throws; unregistering an unknown name is a no-op. The
 * registry alone keeps the names: `engine.name` asks it.
 */
import { LibError } from "../errors.js";
import type { Engine } from "./engine.js";

/** `getEngine(name)` for a name nobody registered; the message lists the registered names. */
export class EngineNotFoundError extends LibError {
  override name = "EngineNotFoundError";
  readonly engineName: string;
  readonly registeredNames: readonly string[];
  constructor(engineName: string, registeredNames: readonly string[]) {
    const known =
      registeredNames.length === 0
        ? "no engines are registered"
        : `registered: ${registeredNames.map((n) => `"${n}"`).join(", ")}`;
    super(
      `No engine is registered as "${engineName}" (${known}). ` +
        "Create one with createEngine(..., { register: true }) or register(name, engine).",
    );
    this.engineName = engineName;
    this.registeredNames = Object.freeze([...registeredNames]);
  }
}

/** The name queries without `.using()` resolve, and `createEngine(config, { register: true })` registers under. */
export const DEFAULT_ENGINE_NAME = "default";

const engines = new Map<string, Engine>();

/** Registers `engine` under `name` and returns it. Throws `LibError` when the name is taken. */
export function register(name: string, engine: Engine): Engine {
  if (typeof name !== "string" || name.length === 0) throw new LibError("An engine name must be a non-empty string");
  const existing = engines.get(name);
  if (existing !== undefined) {
    throw new LibError(
      existing === engine
        ? `This engine is already registered as "${name}"`
        : `An engine is already registered as "${name}"; unregister("${name}") first`,
    );
  }
  engines.set(name, engine);
  return engine;
}

/** Removes a name from the registry (the engine is not disposed). Unknown names: no-op. */
export function unregister(name: string): void {
  engines.delete(name);
}

/** The engine registered as `name`; throws `EngineNotFoundError` (a `LibError`) listing the registered names. */
export function getEngine(name: string): Engine {
  const engine = engines.get(name);
  if (engine === undefined) throw new EngineNotFoundError(name, [...engines.keys()]);
  return engine;
}

/** Whether a name is taken. */
export function isRegistered(name: string): boolean {
  return engines.has(name);
}

/** The names an engine is registered under, in registration order (usually zero or one). */
export function namesOf(engine: Engine): string[] {
  return [...engines].filter(([, e]) => e === engine).map(([name]) => name);
}
