/**
 * Process warnings a test provokes on purpose (`process.emitWarning` with a `LIB_...` code): the
 * test gets them to assert on, and Node's default printer does not write them, stack and all, into
 * the middle of the test output. Warnings with other codes still reach the usual listeners.
 */
type Warning = Error & { code?: string };

/** Runs `body` and returns the warnings with `code` emitted meanwhile (they arrive on a later tick). */
export async function captureWarnings(code: string, body: () => Promise<void>): Promise<Warning[]> {
  const seen: Warning[] = [];
  const listeners = process.listeners("warning");
  const capture = (warning: Warning): void => {
    if (warning.code === code) seen.push(warning);
    else for (const listener of listeners) listener.call(process, warning);
  };
  process.removeAllListeners("warning");
  process.on("warning", capture);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", capture);
    for (const listener of listeners) process.on("warning", listener);
  }
  return seen;
}
