/**
 * Request coalescing (singleflight): identical requests in flight share one run. The run belongs to
 * none of its waiters: a waiter whose signal aborts or whose deadline passes leaves with
 * `QueryCancelledError` while the others keep waiting, and only when every waiter has left is the
 * run itself aborted (its statement interrupted). Every waiter that stays gets the run's outcome,
 * its error included; nothing here caches an error.
 */
import { CancelWatch, type CancelOptions } from "../driver/cancellation.js";

export class Flight<T> {
  readonly #controller = new AbortController();
  readonly #outcome: Promise<T>;
  #waiters = 0;
  #settled = false;

  /** Starts `run` now; it is handed a signal that aborts once every waiter has left. */
  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.#outcome = run(this.#controller.signal).finally(() => {
      this.#settled = true;
    });
    this.#outcome.catch(() => undefined); // waiters see it; an abandoned run must not go unhandled
  }

  /** Resolves (never rejects) once the run has finished; not a waiter. */
  whenSettled(): Promise<void> {
    return this.#outcome.then(
      () => undefined,
      () => undefined,
    );
  }

  /** True once the run has finished (succeeded or failed). */
  get settled(): boolean {
    return this.#settled;
  }

  /** Waits for the run's outcome, or until this waiter's own signal or deadline ends its wait. */
  async join(options: CancelOptions = {}): Promise<T> {
    this.#waiters++;
    if (options.signal === undefined && options.timeoutMs === undefined) {
      try {
        return await this.#outcome;
      } finally {
        this.#waiters--;
      }
    }
    const watch = new CancelWatch(() => undefined, options);
    let cancelled = false;
    try {
      if (options.signal?.aborted === true) {
        cancelled = true;
        throw watch.errorForAbortedSignal();
      }
      const first = await Promise.race([
        this.#outcome.then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
        watch.fired,
      ]);
      if (typeof first === "string") {
        cancelled = true;
        throw watch.error();
      }
      if (!first.ok) throw first.error;
      return first.value;
    } finally {
      watch.dispose();
      this.#waiters--;
      // The last waiter to leave early takes the run with it.
      if (cancelled && this.#waiters === 0 && !this.#settled) this.#controller.abort();
    }
  }
}
