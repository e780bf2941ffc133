/** A cursor's chunk read raced against its cancellation (a signal or deadline). */
import type { CancelWatch } from "../driver/cancellation.js";

/** What the race answers when cancellation fired first. */
export const CANCELLED = Symbol("cancelled");

/**
 * Waits for `read`, or until cancellation fires and then for the interrupted read to settle.
 * `onWait` receives the function that ends the wait early (the cursor calls it when the watch fires).
 */
export async function cancellable<T>(
  watch: CancelWatch,
  read: Promise<T>,
  onWait: (wake: (cancelled: typeof CANCELLED) => void) => void,
): Promise<T> {
  // A promise of this read only: racing a derivative of the never-settling `watch.fired` would
  // leave one reaction per read on it, each holding its chunk, so a streamed result would pile up.
  const cancelled = new Promise<typeof CANCELLED>((resolve) => {
    if (watch.reason !== undefined) resolve(CANCELLED);
    else onWait(resolve);
  });
  const first = await Promise.race([read, cancelled]);
  return first === CANCELLED ? read : first; // the interrupted call settles promptly
}
