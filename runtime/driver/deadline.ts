/**
 * Deadlines for driver housekeeping (pings, closes): a dead warehouse must never leave a pool
 * waiting on a call that no longer answers.
 */

/** Settles like `promise`, or rejects after `ms` (the timer never keeps the process alive). */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
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
