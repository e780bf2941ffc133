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

  /**
   * Emits `event` (the backend is filled in) with the time since `startedAt` (a performance.now() value).
   * Completes the caller's fresh literal in place rather than copying it: this runs on every cache hit.
   */
  emit(event: Without<LogEvent, "backend" | "durationMs">, startedAt: number): void {
    if (this.#log === undefined) return;
    const complete = event as { backend?: BackendType; durationMs?: number };
    complete.backend = this.backend;
    complete.durationMs = performance.now() - startedAt;
    try {
      this.#log(complete as LogEvent);
    } catch {
      // A logger's own failure must not turn a good query into a failed one.
    }
  }
}
