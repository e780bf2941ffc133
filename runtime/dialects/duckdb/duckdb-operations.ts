/**
 * The driver calls in flight on one DuckDB connection (execute, stream setup, chunk reads) and its
 * interrupt. DuckDB forgets an interrupt that lands before its statement has started (e.g. while the
 * semantic layer is still rewriting), so while calls are in flight the interrupt is repeated until
 * they have settled, and statements not yet started refuse to start (`throwIfInterrupted`).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { OperationCounter } from "./duckdb-results.js";

/** How often a pending interrupt is repeated while the cancelled operation is still running. */
const INTERRUPT_REPEAT_MS = 20;

export class DuckDBOperations implements OperationCounter {
  readonly #connection: DuckDBConnection;
  #active = 0;
  #interruptPending = false;
  #interruptTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(connection: DuckDBConnection) {
    this.#connection = connection;
  }

  /** Interrupts DuckDB now, and again every few ms while calls are in flight. */
  interrupt(): void {
    if (this.#closed) return;
    this.#connection.interrupt();
    if (this.#active === 0) return;
    this.#interruptPending = true;
    this.#interruptTimer ??= setInterval(() => {
      if (!this.#closed) this.#connection.interrupt();
    }, INTERRUPT_REPEAT_MS).unref();
  }

  /** A driver call starts on the connection. */
  operationStarted(): void {
    this.#active++;
  }

  /** The driver call begun last has settled. */
  operationSettled(): void {
    if (--this.#active === 0) this.#clearInterrupt();
  }

  throwIfInterrupted(): void {
    // Same text as DuckDB's own, so it maps like a real interrupt.
    if (this.#interruptPending) throw new Error("INTERRUPT Error: Interrupted!");
  }

  /** The connection is closing: nothing more to interrupt. */
  close(): void {
    this.#closed = true;
    this.#clearInterrupt();
  }

  #clearInterrupt(): void {
    this.#interruptPending = false;
    if (this.#interruptTimer !== undefined) clearInterval(this.#interruptTimer);
    this.#interruptTimer = undefined;
  }
}
