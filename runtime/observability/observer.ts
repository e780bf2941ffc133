/** Delivers an engine's log events to its `log` option; a logger that throws never breaks a query. */
import type { BackendType } from "../dialects/dialects.js";
import type { EngineLogger, LogEvent } from "./log-event.js";

type Without<E, K extends PropertyKey> = E extends unknown ? Omit<E, K> : never;

export class Observer {
  readonly backend: BackendType;
  readonly #log: EngineLogger | undefined;

  constructor(backend: BackendType, log: EngineLogger | undefined) {
    this.backend = backend;
    this.#log = log;
  }

  get logging(): boolean {
    return this.#log !== undefined;
  }

  /** Emits `event` (the backend is filled in) with the time since `startedAt` (a performance.now() value). */
  emit(event: Without<LogEvent, "backend" | "durationMs">, startedAt: number): void {
    if (this.#log === undefined) return;
    try {
      this.#log({ ...event, backend: this.backend, durationMs: performance.now() - startedAt } as LogEvent);
    } catch {
      // A logger's own failure must not turn a good query into a failed one.
    }
  }
}
