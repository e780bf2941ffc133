/**
 * Safety net for a cursor that is garbage-collected without being closed: its pooled connection
 * would stay checked out forever and the pool would slowly run dry. A FinalizationRegistry gives
 * the connection back and warns (a Node process warning, code `LIB_UNCLOSED_CURSOR`) once per
 * place in the code that opened such a cursor, naming that place.
 *
 * Naming the place takes a stack capture per `execute()`, which costs more than the rest of a
 * small query's own work. So stacks are captured only once they can matter: from the start with
 * `LIB_TRACE_CURSORS=1`, otherwise from the first unclosed cursor on (that warning says where
 * to look; the next cursor left open names its place).
 */

/** What a never-closed cursor still owes; must not reference the cursor itself. */
export interface Owed {
  readonly stream: { close(): Promise<void> };
  readonly connection: { release(): Promise<void> };
}

interface Leak {
  readonly owed: Owed;
  /** Captured where the query was executed (when tracing); its stack is only rendered when a warning is due. */
  readonly openedAt: Error | undefined;
}

/** The environment variable that turns the capture on from the start. */
export const TRACE_CURSORS_ENV = "LIB_TRACE_CURSORS";
const UNKNOWN_SITE = "(unknown)";

const warnedSites = new Set<string>();
/** Frames of the library itself (source or built), skipped when naming the caller. */
const LIBRARY_FRAME = /[\\/]runtime[\\/](query|query-executor|cursor|engine)[\\/]/;
/** Whether opening sites are captured; undefined until the first capture reads the environment. */
let tracing: boolean | undefined;

const registry = new FinalizationRegistry<Leak>((leak) => {
  void leak.owed.stream
    .close()
    .catch(() => undefined)
    .then(() => leak.owed.connection.release())
    .catch(() => undefined);
  const message =
    "A lib cursor was garbage-collected without being closed; its pooled connection has been returned. " +
    "Close cursors with `await using` or cursor.close().";
  if (leak.openedAt === undefined) {
    tracing = true; // from now on, the next cursor left open names its place
    if (warnedSites.has(UNKNOWN_SITE)) return;
    warnedSites.add(UNKNOWN_SITE);
    process.emitWarning(
      `${message} Where it was opened is not known: cursors opened from now on record it, so the next one ` +
        `left open is named (set ${TRACE_CURSORS_ENV}=1 to record it from the start).`,
      { code: "LIB_UNCLOSED_CURSOR" },
    );
    return;
  }
  const frames = (leak.openedAt.stack ?? "").split("\n").slice(1);
  // The first frame outside the library is the caller's: one warning per such place.
  const site = frames.find((frame) => !LIBRARY_FRAME.test(frame)) ?? frames[0] ?? UNKNOWN_SITE;
  if (warnedSites.has(site)) return;
  warnedSites.add(site);
  process.emitWarning(`${message} The cursor was opened\n${site.trim()}\n(stack:\n${frames.join("\n")})`, {
    code: "LIB_UNCLOSED_CURSOR",
  });
});

/**
 * Where a query is being executed, for the warning (call before the first await), or undefined
 * while sites are not being recorded.
 */
export function captureOpenSite(): Error | undefined {
  tracing ??= /^(1|true|yes|on)$/i.test(process.env[TRACE_CURSORS_ENV] ?? "");
  return tracing ? new Error("cursor opened here") : undefined;
}

/**
 * @internal Tests: record opening sites or not, or `undefined` to read `LIB_TRACE_CURSORS` again at the
 * next capture; also forgets which places were warned about.
 */
export function traceCursorOpenings(on: boolean | undefined): void {
  tracing = on;
  warnedSites.clear();
}

/**
 * Watches `cursor` (its own unregister token: no object per cursor besides the record); call
 * `unwatchUnclosed(cursor)` once the cursor has released its connection.
 */
export function watchUnclosed(cursor: object, owed: Owed, openedAt: Error | undefined): void {
  registry.register(cursor, { owed, openedAt }, cursor);
}

export function unwatchUnclosed(cursor: object): void {
  registry.unregister(cursor);
}
