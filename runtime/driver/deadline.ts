/**
 * Deadlines for driver housekeeping (pings, closes): a dead warehouse must never leave a pool
 * waiting on a call that no longer answers.
 */

/** Node clamps a timer longer than 2^31 − 1 ms to 1 ms: no timeout or duration may exceed it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What `withDeadline` rejects with when the time is up. */
export class DeadlineExceededError extends Error {
  override name = "DeadlineExceededError";
}

/** Settles like `promise`, or rejects with `DeadlineExceededError` after `ms` (the timer never keeps the process alive). */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineExceededError(`no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A liveness probe: true when `probe` succeeds within `ms`, false otherwise (never rejects). */
export function answersWithin(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  return withDeadline(probe(), ms).then(
    () => true,
    () => false,
  );
}
