/**
 * Watches an AbortSignal and a `timeoutMs` deadline for one cursor. When either fires it interrupts
 * the connection's running statement (the driver then rejects the pending call) and remembers why,
 * so the cursor can reject with `QueryCancelledError`. Listeners and timers are removed on dispose.
 */
import { MAX_TIMER_MS } from "./deadline.js";
import { QueryCancelledError, ValidationError } from "../errors.js";

export interface CancelOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

export type CancelReason = "aborted" | "timeout";

export class CancelWatch {
  #reason: CancelReason | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #onAbort: (() => void) | undefined;
  #listeners: Array<() => void> = [];
  readonly #signal: AbortSignal | undefined;
  readonly #timeoutMs: number | undefined;
  /** Resolves (never rejects) once cancellation fires. */
  readonly fired: Promise<CancelReason>;
  #resolveFired!: (reason: CancelReason) => void;

  constructor(interrupt: () => void, options: CancelOptions) {
    this.#signal = options.signal;
    this.#timeoutMs = options.timeoutMs;
    this.fired = new Promise((resolve) => (this.#resolveFired = resolve));
    const fire = (reason: CancelReason): void => {
      if (this.#reason !== undefined) return;
      this.#reason = reason;
      this.#clear();
      try {
        interrupt();
      } catch {
        // Nothing running or the connection is gone: the pending call settles on its own.
      }
      this.#resolveFired(reason);
      for (const listener of this.#listeners.splice(0)) listener();
    };
    if (options.timeoutMs !== undefined) {
      this.#timer = setTimeout(() => fire("timeout"), options.timeoutMs);
      this.#timer.unref?.();
    }
    if (options.signal !== undefined) {
      this.#onAbort = () => fire("aborted");
      options.signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  /** Checks `timeoutMs` before anything runs (Node would fire a longer timer after ~1 ms). */
  static validateTimeout(timeoutMs: unknown): void {
    if (timeoutMs === undefined) return;
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
      throw new ValidationError(
        `timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS} (2^31 - 1), got ${String(timeoutMs)}`,
        {
          field: "timeoutMs",
        },
      );
    }
  }

  get reason(): CancelReason | undefined {
    return this.#reason;
  }

  /** Runs `listener` once when cancellation fires (immediately if it already has). */
  onFire(listener: () => void): void {
    if (this.#reason !== undefined) listener();
    else this.#listeners.push(listener);
  }

  /** The error a cancelled open/read rejects with; `driverError` is what the interrupted call threw. */
  error(driverError?: unknown): QueryCancelledError {
    if (this.#reason === "timeout") {
      return new QueryCancelledError(
        "timeout",
        `Query cancelled: it ran past its timeoutMs deadline of ${this.#timeoutMs} ms`,
        { cause: driverError },
      );
    }
    const cause = this.#signal?.reason ?? driverError;
    return new QueryCancelledError("aborted", "Query cancelled: its AbortSignal was aborted", { cause });
  }

  /** The error for a signal that was aborted before anything ran. */
  errorForAbortedSignal(): QueryCancelledError {
    return new QueryCancelledError(
      "aborted",
      "Query cancelled before it started: its AbortSignal was already aborted",
      { cause: this.#signal?.reason },
    );
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#onAbort = undefined;
  }

  /** Stops watching (the cursor is closed). */
  dispose(): void {
    this.#clear();
    this.#listeners = [];
  }
}
