/**
 * The statement a backend A connection is running, and how a cancelled one is known to be over: the
 * sdk reports its end, or the warehouse answers its abort-request with success. Until then the session
 * is not handed out again; if neither happens within a grace period it is never reused.
 */
import type { RowStatement } from "snowflake-sdk";

export interface Running {
  statement: RowStatement | undefined;
  /**
   * The sdk reported the statement's end (rows, an error, or the warehouse's "canceled"), or the
   * warehouse accepted its abort-request: either way the session may run the next statement.
   */
  ended?: boolean;
  /** Called when it ends (a cancellation waits for it); may be called twice (the answer and the abort's). */
  onEnded?: () => void;
  /** Gives up locally: rejects the pending call (or ends the stream) with this error. */
  abandon(error: Error): void;
  /** A result being streamed: the statement has finished, only the rows are still read. */
  readonly streaming?: boolean;
}

export function markEnded(running: Running): void {
  running.ended = true;
  running.onEnded?.();
}

/** True once `running` ends; false if it has not within `graceMs`. */
export function untilEnded(running: Running, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (running.ended === true) return resolve(true);
    const grace = setTimeout(() => resolve(false), graceMs);
    grace.unref();
    running.onEnded = () => {
      clearTimeout(grace);
      resolve(true);
    };
  });
}
