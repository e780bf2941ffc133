/**
 * The piece of generic-pool's private state the engine's pool needs: its queue of waiting
 * acquirers (`ResourceRequest`s). generic-pool 3.9 has one global `acquireTimeoutMillis` and no way
 * to cancel one `acquire()`; its request objects do have a per-request `setTimeout(ms)`, and its
 * queue drops a request that is rejected with an error named `TimeoutError`. That is what gives us
 * SQLAlchemy's timeout semantics and cancellable waits (README "Engines, pools and the registry").
 */
import type { Pool } from "generic-pool";

/** One waiting `acquire()`: generic-pool's `ResourceRequest`. */
export interface WaitingRequest {
  readonly state: string;
  readonly promise: Promise<unknown>;
  /** Arms this request's own timeout (ms > 0): it then rejects with the pool's `TimeoutError`. */
  setTimeout(ms: number): void;
  reject(reason: unknown): void;
}

interface QueueSlot extends Iterable<WaitingRequest> {
  readonly length: number;
  readonly tail: WaitingRequest | undefined;
}

interface WaitingQueue {
  readonly length: number;
  readonly _slots?: readonly QueueSlot[];
  dequeue(): WaitingRequest | undefined;
}

function queueOf(pool: Pool<unknown>): WaitingQueue | undefined {
  const queue = (pool as unknown as { _waitingClientsQueue?: WaitingQueue })._waitingClientsQueue;
  return queue !== undefined && typeof queue.dequeue === "function" ? queue : undefined;
}

/**
 * The still-waiting request behind the promise `pool.acquire()` just returned, or undefined when
 * generic-pool served it synchronously. A new request is at the tail; the walk is the fallback.
 */
export function findWaitingRequest(pool: Pool<unknown>, promise: Promise<unknown>): WaitingRequest | undefined {
  const queue = queueOf(pool);
  // Nobody waits (the usual checkout, served at once): no walk through the slots.
  if (queue === undefined || queue.length === 0) return undefined;
  const slots = queue._slots;
  if (slots === undefined) return undefined;
  for (const slot of slots) {
    if (slot.tail?.promise === promise) return slot.tail;
  }
  for (const slot of slots) {
    for (const request of slot) if (request.promise === promise) return request;
  }
  return undefined;
}

/** Rejects the longest-waiting pending acquirer with `reason`; false when nobody waits. */
export function rejectOneWaiter(pool: Pool<unknown>, reason: unknown): boolean {
  const queue = queueOf(pool);
  while (queue !== undefined && queue.length > 0) {
    const request = queue.dequeue();
    if (request !== undefined && request.state === "PENDING") {
      request.reject(reason);
      return true;
    }
  }
  return false;
}

/** Rejects every pending acquirer (the pool is being disposed). */
export function rejectAllWaiters(pool: Pool<unknown>, reason: unknown): void {
  while (rejectOneWaiter(pool, reason));
}
