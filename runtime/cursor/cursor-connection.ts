/** What a cursor gives back when it closes: a pooled connection, or nothing (a result served from memory). */
import type { PooledConnection } from "../engine/pooled-connection.js";

/** What a cursor holds on to while it reads. */
export type CursorConnection = Pick<PooledConnection, "release" | "interrupt">;

const NOTHING_TO_RELEASE: Promise<void> = Promise.resolve();

/** A result with nothing to give back (served by the result cache). */
export const NO_CONNECTION: CursorConnection = Object.freeze({
  release: () => NOTHING_TO_RELEASE,
  interrupt: () => undefined,
});
