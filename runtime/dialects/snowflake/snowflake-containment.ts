/**
 * Keeps failures inside snowflake-sdk from crashing the process. The sdk reads a result in
 * callbacks it schedules itself (`process.nextTick`, HTTP handlers), so a malformed answer from the
 * warehouse (a row that is not an array, `"abc"` in an integer column) throws where no caller can
 * catch it: an uncaught exception, with the query left pending forever. Each statement's calls into
 * the sdk run inside a Node domain, which receives whatever the work they scheduled throws; the
 * statement then fails with `InternalError` and its connection is not reused.
 *
 * `node:domain` is loaded only when a backend A connection opens: loading it makes every async
 * operation of the process pay for domain tracking, which backend B and C users must not.
 */
import type * as DomainModule from "node:domain";

let domains: typeof DomainModule | undefined;

/** Loads `node:domain` (once); call before the first statement. */
export async function loadContainment(): Promise<void> {
  domains ??= await import("node:domain");
}

/** Runs a call into the sdk; what the work it schedules throws goes to the guard's handler. */
export type Guard = <T>(call: () => T) => T;

/** A guard for one statement: every call run through it reports later exceptions to `onError`. */
export function containment(onError: (error: unknown) => void): Guard {
  if (domains === undefined) return (call) => call();
  const domain = domains.create();
  domain.on("error", onError);
  return (call) => domain.run(call);
}
