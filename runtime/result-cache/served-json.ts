/**
 * The JSON body of a cursor the result cache served (`sendRows` of `lib/express`): the UTF-8 bytes
 * of the text `toJson(await cursor.fetchAllRows())` writes, made once per cache entry and kept with
 * it (`ResultCache.bodyOf`: counted against the byte budget, dropped with the entry), so every later
 * hit of the entry sends them without building row objects, writing JSON or encoding it again.
 */
import { rowObjectsOf } from "../driver/row-objects.js";
import { dateColumnNames, withDayFields } from "../values/day-columns.js";
import { toJson } from "../values/json.js";
import type { CachedResult, CachedStream } from "./cached-result.js";
import { JsonBody } from "./json-body.js";
import type { ResultCache } from "./result-cache.js";

interface Served {
  readonly cache: ResultCache;
  readonly key: string;
  readonly result: CachedResult;
  readonly stream: CachedStream;
}

/** Cursors served from an entry, with where their rows came from (weak: nothing outlives the cursor). */
const servedCursors = new WeakMap<object, Served>();

/** Remembers that `cursor` replays `result`, the entry of `key` in `cache`, through `stream`. */
export function rememberServed(cursor: object, served: Served): void {
  servedCursors.set(cursor, served);
}

/**
 * The JSON body of every row of `cursor` when the cache served it and nothing was read from it yet
 * (the cursor then counts as read to its end); undefined otherwise (read it as usual).
 */
export function takeServedJson(cursor: object): JsonBody | undefined {
  const entry = servedCursors.get(cursor);
  if (entry === undefined || !entry.stream.unread) return undefined;
  servedCursors.delete(cursor);
  entry.stream.consume();
  return entry.cache.bodyOf(entry.key, entry.result, () => new JsonBody(rowsJson(entry.result, entry.stream)));
}

/**
 * What `toJson(fetchAllRows())` writes for `result`: row objects by column name (the builder the
 * result's readers share, as the cursor takes it), DATE columns as days.
 */
function rowsJson(result: CachedResult, stream: CachedStream): string {
  const toObject = stream.rowObjects() ?? rowObjectsOf(result.columns.map((c) => c.name));
  const rows: Record<string, unknown>[] = [];
  for (const chunk of result.chunks) for (const row of chunk) rows.push(toObject(row));
  return toJson(withDayFields(rows, dateColumnNames(result.columns)));
}
