/**
 * Safety net for a cursor that is garbage-collected without being closed: its pooled connection
 * would stay checked out forever and the pool would slowly run dry. A FinalizationRegistry gives
 * the connection back and warns (a Node process warning, code `LIB_UNCLOSED_CURSOR`) once per
 * place in the code that opened such a cursor, naming that place.
 */

interface Leak {
  /** Closes the stream and returns the connection; must not reference the cursor itself. */
  readonly release: () => Promise<void>;
  /** Captured where the query was executed; its stack is only rendered when a warning is due. */
  readonly openedAt: Error;
}

const warnedSites = new Set<string>();
/** Frames of the library itself (source or built), skipped when naming the caller. */
const LIBRARY_FRAME = /[\\/]runtime[\\/](query|query-executor|cursor|engine)[\\/]/;

const registry = new FinalizationRegistry<Leak>((leak) => {
  void leak.release().catch(() => undefined);
  const frames = (leak.openedAt.stack ?? "").split("\n").slice(1);
  // The first frame outside the library is the caller's: one warning per such place.
  const site = frames.find((frame) => !LIBRARY_FRAME.test(frame)) ?? frames[0] ?? "(unknown)";
  if (warnedSites.has(site)) return;
  warnedSites.add(site);
  process.emitWarning(
    "A lib cursor was garbage-collected without being closed; its pooled connection has been returned. " +
      `Close cursors with \`await using\` or cursor.close(). The cursor was opened\n${site.trim()}\n(stack:\n${frames.join("\n")})`,
    { code: "LIB_UNCLOSED_CURSOR" },
  );
});

/** Where a query is being executed, for the warning (call before the first await). */
export function captureOpenSite(): Error {
  return new Error("cursor opened here");
}

/** Watches `cursor`; call the returned function once the cursor has released its connection. */
export function watchUnclosed(cursor: object, release: () => Promise<void>, openedAt: Error): () => void {
  const token = {};
  registry.register(cursor, { release, openedAt }, token);
  return () => registry.unregister(token);
}
