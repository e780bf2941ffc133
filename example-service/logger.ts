/** The service's log sink: one line per event, never request data or secrets. */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Writes to stdout/stderr; errors are summarised by class and message (no stack, no config). */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(error === undefined ? message : `${message}: ${describeError(error)}`),
};

/** `Name: message`, followed by the cause chain, e.g. `LibSchemaMismatchError: ... (cause: Error: ...)`. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" (cause: ") + ")".repeat(parts.length - 1);
}
