/**
 * Waits until `condition` holds (polling every 20 ms, at most `timeoutMs`), for effects that land
 * in the background after the call under test returned (an abort-request sent after a cancelled
 * query already rejected). Returns whether it held; the caller asserts on the outcome itself.
 */
export async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited >= timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
