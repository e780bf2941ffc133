/**
 * Express helpers that send lossless JSON (see `toJson`). Typed structurally, so the runtime does not
 * import express: any Express 4/5 `res` (or a plain `http.ServerResponse`) fits.
 *
 *   app.use(jsonResponse());          // every res.json(body) now writes bigint/Decimal as exact numbers
 *   sendJson(res, { revenue }, 200);  // or per response
 *   await sendRows(res, cursor);      // every row of a cursor (a cache hit sends the entry's JSON text)
 */
import { toJson } from "../values/json.js";
import type { JsonBody } from "../result-cache/json-body.js";
import { takeServedJson } from "../result-cache/served-json.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** The part of an Express response (or Node `ServerResponse`) the helpers use. */
export interface JsonResponseTarget {
  statusCode: number;
  getHeader(name: string): unknown;
  setHeader(name: string, value: string): unknown;
  end(body: string | Uint8Array): unknown;
  /** Express's `res.send`: adds ETag, Content-Length, conditional GET (304) and HEAD handling when present. */
  send?(body: string | Uint8Array): unknown;
  /** Express's `res.app`: its `etag` setting decides the ETag of a cache entry's kept body. */
  readonly app?: { get(setting: string): unknown };
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
 * `sendJson(res, await cursor.fetchAllRows(), status, options)` sends (headers included), then closes
 * the cursor. When the engine's result cache served the cursor and nothing was read from it, the
 * entry's JSON body is sent: its UTF-8 bytes, written on the entry's first such request and kept with
 * it (their bytes count against the cache's `maxBytes`; they expire, are evicted and are invalidated
 * with the entry), so later hits build no row objects, write no JSON and encode nothing. Under
 * Express's built-in `etag` settings (`"weak"`, the default, or `"strong"`) the body's ETag is hashed
 * once per entry, not per response; a custom `etag` function is called as Express calls it, and
 * `app.set("etag", false)` sends none. With `space`, the text is written per request.
 */
export async function sendRows(
  res: JsonResponseTarget,
  cursor: RowsSource,
  status?: number,
  options: JsonResponseOptions = {},
): Promise<void> {
  try {
    const body = options.space === undefined ? takeServedJson(cursor) : undefined;
    if (body !== undefined) writeBody(res, body, status);
    else writeJson(res, toJson(await cursor.fetchAllRows(), options.space), status);
  } finally {
    await cursor.close();
  }
}

function writeJson(res: JsonResponseTarget, text: string, status: number | undefined): void {
  if (status !== undefined) res.statusCode = status;
  if (res.getHeader("Content-Type") === undefined) res.setHeader("Content-Type", JSON_TYPE);
  if (typeof res.send === "function") res.send(text);
  else res.end(text);
}

/** Sends a kept body's bytes with the headers `writeJson` of its text would give. */
function writeBody(res: JsonResponseTarget, body: JsonBody, status: number | undefined): void {
  const type = res.getHeader("Content-Type");
  // Express adds `charset=utf-8` to a type the handler set only when it sends a text.
  if (type !== undefined && type !== JSON_TYPE) return writeJson(res, body.bytes.toString("utf8"), status);
  if (status !== undefined) res.statusCode = status;
  if (type === undefined) res.setHeader("Content-Type", JSON_TYPE);
  if (typeof res.send !== "function") {
    res.end(body.bytes);
    return;
  }
  // With an ETag set, Express hashes nothing and still answers a matching If-None-Match with 304.
  const weak = builtInETagWeakness(res.app);
  if (weak !== undefined && res.getHeader("ETag") === undefined) res.setHeader("ETag", body.entityTag(weak));
  res.send(body.bytes);
}

/**
 * Whether the app's ETags are Express's built-in weak (true) or strong (false) ones, which `JsonBody`
 * makes the same way; undefined for none or a custom function (Express then does as it always does).
 */
function builtInETagWeakness(app: JsonResponseTarget["app"]): boolean | undefined {
  if (app === undefined) return undefined;
  const compiled = app.get("etag fn");
  // Express compiles "weak"/true/"strong" into its own `generateETag`; a function the app set is kept as it is.
  if (typeof compiled !== "function" || compiled.name !== "generateETag") return undefined;
  const setting = app.get("etag");
  return setting === "strong" ? false : setting === true || setting === "weak" ? true : undefined;
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
