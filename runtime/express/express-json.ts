/**
 * Express helpers that send lossless JSON (see `toJson`). Typed structurally, so the runtime does not
 * import express: any Express 4/5 `res` (or a plain `http.ServerResponse`) fits.
 *
 *   app.use(jsonResponse());          // every res.json(body) now writes bigint/Decimal as exact numbers
 *   sendJson(res, { revenue }, 200);  // or per response
 *   await sendRows(res, cursor);      // every row of a cursor (a cache hit sends the entry's JSON text)
 */
import { toJson } from "../values/json.js";
import { takeServedJson } from "../result-cache/served-json.js";

/** The part of an Express response (or Node `ServerResponse`) the helpers use. */
export interface JsonResponseTarget {
  statusCode: number;
  getHeader(name: string): unknown;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
  /** Express's `res.send`: adds ETag, Content-Length and HEAD handling when present. */
  send?: (body: string) => unknown;
}

export interface JsonResponseOptions {
  /** Indentation passed to `toJson` (as Express's "json spaces"). */
  readonly space?: string | number;
}

/** Writes `body` as lossless JSON with `Content-Type: application/json; charset=utf-8` (if not set) and `status` (if given). */
export function sendJson(
  res: JsonResponseTarget,
  body: unknown,
  status?: number,
  options: JsonResponseOptions = {},
): void {
  writeJson(res, toJson(body, options.space), status);
}

/** The part of a cursor `sendRows` reads: any `Cursor` of lib fits. */
export interface RowsSource {
  fetchAllRows(): Promise<readonly unknown[]>;
  close(): Promise<void>;
}

/**
 * Sends every row of `cursor` as a lossless JSON array, exactly what
 * `sendJson(res, await cursor.fetchAllRows(), status, options)` sends, then closes the cursor. When
 * the engine's result cache served the cursor and nothing was read from it, the entry's JSON text is
 * sent: written on the entry's first such request and kept with it (its bytes count against the
 * cache's `maxBytes`; it expires, is evicted and is invalidated with the entry), so later hits build
 * no row objects and write no JSON. With `space`, the text is written per request.
 */
export async function sendRows(
  res: JsonResponseTarget,
  cursor: RowsSource,
  status?: number,
  options: JsonResponseOptions = {},
): Promise<void> {
  try {
    const text = options.space === undefined ? takeServedJson(cursor) : undefined;
    writeJson(res, text ?? toJson(await cursor.fetchAllRows(), options.space), status);
  } finally {
    await cursor.close();
  }
}

function writeJson(res: JsonResponseTarget, text: string, status: number | undefined): void {
  if (status !== undefined) res.statusCode = status;
  if (res.getHeader("Content-Type") === undefined) res.setHeader("Content-Type", "application/json; charset=utf-8");
  if (typeof res.send === "function") res.send(text);
  else res.end(text);
}

/**
 * Express middleware replacing `res.json` with the lossless writer for the rest of the request, so
 * handlers keep writing `res.json(body)` / `res.status(503).json({ detail })`.
 */
export function jsonResponse(
  options: JsonResponseOptions = {},
): (req: unknown, res: JsonResponseTarget & { json?: unknown }, next: () => void) => void {
  return (_req, res, next) => {
    res.json = function json(this: unknown, body: unknown) {
      sendJson(res, body, undefined, options);
      return res;
    };
    next();
  };
}
