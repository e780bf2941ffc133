/**
 * Statement texts the layer passed through untouched although they mention "semantic" or `get_ddl`
 * (a column named `semantic_view`, the expanded SQL of a semantic query run by hand): no semantic
 * statement, no `semantic_view()` or introspection call. That verdict rests on the text alone (a call
 * the layer finds is rewritten or fails, whatever the catalog holds), so it is remembered per text, and
 * such a statement run again is plain SQL to the driver at once, not split, parsed and scanned again
 * on every run (an async detour that cost ~0.1 ms per query). Bounded like the driver's per-text tests.
 */
import { LruCache } from "./lru-cache.js";

const REMEMBERED = 256;
/** Longer texts are not remembered (a long literal makes another text per value). */
const MAX_LENGTH = 16 * 1024;

const texts = new LruCache<string, true>(REMEMBERED);

/** Whether `statement` passed through the layer before. */
export function passedThrough(statement: string): boolean {
  return texts.get(statement) === true;
}

/** `statement` was passed through as it is (the layer found nothing semantic in it). */
export function notePassedThrough(statement: string): void {
  if (statement.length <= MAX_LENGTH) texts.set(statement, true);
}
