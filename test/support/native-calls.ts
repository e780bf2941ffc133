/**
 * Counts a driver's native async calls: the async resources node-addon-api's workers create
 * ("generic"), one per libuv thread-pool hop (a DuckDB run, a chunk fetch, a prepare).
 */
import { createHook } from "node:async_hooks";

/** `run`'s value and how many native async calls it made. */
export async function countingNativeCalls<T>(run: () => Promise<T>): Promise<{ value: T; calls: number }> {
  let calls = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "generic") calls++;
    },
  }).enable();
  try {
    return { value: await run(), calls };
  } finally {
    hook.disable();
  }
}
