/**
 * Keeps failures inside snowflake-sdk from crashing the process. The sdk reads a result in
 * callbacks it schedules itself, so a malformed answer from the warehouse (a row that is not an
 * array, `"abc"` in an integer column, a rowset that is not a list) throws where no caller can
 * catch it: an uncaught exception, with the query left pending forever. The statement must fail
 * with `InternalError` instead, and its connection must not be reused.
 *
 * Probing the sdk (3.3) shows every such throw comes from its row stream (`row_stream.js`), in two
 * places; the guard covers exactly those, so nothing else in the process pays for it (a Node
 * domain would: once one exists, every promise of the process is tracked):
 * - **value conversion**: rows are converted column by column through each result column's
 *   `_getRowValue` / `_getRowValueAsString`, in `process.nextTick` callbacks of the row stream, also
 *   for result chunks downloaded later. {@link Guard.columns} wraps them per column of the
 *   statement: a throw is reported and the value is `undefined` (the statement fails anyway).
 * - **the row stream's own scheduling**: reading starts in the stream's `_read`, which loads and
 *   checks chunks in callbacks it passes to `process.nextTick`. {@link Guard.run} swaps
 *   `process.nextTick` for the synchronous extent of a call only, so that what the call schedules
 *   (and what that schedules in turn) runs guarded; {@link Guard.stream} runs every `_read` so.
 * Statements are therefore always executed with `streamResult: true` and read through these
 * guards: the sdk's own collecting of rows (`streamResult: false`) starts from an HTTP callback
 * that no guard can reach.
 */
import type { Readable } from "node:stream";
import type { RowStatement } from "snowflake-sdk";

type Tick = (callback: (...args: unknown[]) => void, ...args: unknown[]) => void;

/** The guard of one statement: what runs through it reports failures to the statement instead of throwing. */
export interface Guard {
  /** Runs `call`; callbacks it schedules with `process.nextTick` (transitively) report what they throw. */
  run<T>(call: () => T): T;
  /** Guards the value conversion of the statement's result columns (the sdk's own objects). */
  columns(statement: RowStatement): void;
  /** Runs every `_read` of the sdk's row stream through {@link Guard.run}. */
  stream<S extends Readable>(rows: S): S;
}

/** The sdk's per-column conversion methods (sdk 3.3 `column.js`; test/reliability/driver-failures.test.ts fails if they move). */
const CONVERSION_METHODS = ["_getRowValue", "_getRowValueAsString"] as const;

/** A guard for one statement: failures in the sdk's work for it go to `onError` (once or more). */
export function containment(onError: (error: unknown) => void): Guard {
  const report = (call: () => void): void => {
    try {
      run(call);
    } catch (error) {
      onError(error);
    }
  };
  function run<T>(call: () => T): T {
    const previous = process.nextTick as unknown as Tick;
    const guarded: Tick = (callback, ...args) => previous(() => report(() => callback(...args)));
    process.nextTick = guarded as unknown as typeof process.nextTick;
    try {
      return call();
    } finally {
      process.nextTick = previous as unknown as typeof process.nextTick;
    }
  }
  return {
    run,
    columns(statement) {
      for (const column of statement.getColumns() ?? []) {
        const methods = column as unknown as Record<string, unknown>;
        for (const name of CONVERSION_METHODS) {
          const convert = methods[name];
          if (typeof convert !== "function") continue;
          methods[name] = function (this: unknown, row: unknown): unknown {
            try {
              return convert.call(this, row) as unknown;
            } catch (error) {
              onError(error);
              return undefined;
            }
          };
        }
      }
    },
    stream(rows) {
      const read = rows._read;
      rows._read = (size: number) => report(() => read.call(rows, size));
      return rows;
    },
  };
}

/**
 * Reads every row of a finished statement through its guard, as the sdk's `streamResult: false`
 * would; `done` gets the rows or the stream's error. Returns the stream (destroy it to give up).
 */
export function collectRows(
  guard: Guard,
  statement: RowStatement,
  done: (error: unknown, rows: unknown[]) => void,
): Readable {
  return guard.run(() => {
    const rows: unknown[] = [];
    const stream = guard.stream(statement.streamRows() as Readable);
    stream
      .on("readable", () => {
        for (let row: unknown = stream.read(); row !== null; row = stream.read()) rows.push(row);
      })
      .on("end", () => done(undefined, rows))
      .on("error", (error) => done(error, rows));
    return stream;
  });
}
