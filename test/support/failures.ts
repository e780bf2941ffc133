/** What a call fails with: the one "expect a rejection / an exception" helper of the test suite. */
import { expect } from "chai";

/** The error `work` rejects or throws with (a promise, or a function); fails the test when it succeeds. */
export async function failureOf(work: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (error) {
    return asError(error);
  }
  return expect.fail("expected a rejection, but the promise resolved");
}

/** The error `fn` throws; fails the test when it returns. */
export function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return asError(error);
  }
  return expect.fail("expected an exception, but the call returned");
}

function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  return expect.fail(`expected an Error, got ${String(error)}`);
}
