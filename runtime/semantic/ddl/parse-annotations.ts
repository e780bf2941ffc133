/**
 * The annotations of a DDL entry — `COMMENT = '...'`, `WITH SYNONYMS [=] (...)`, `LABELS [=] (FILTER)` —
 * and the `(name, ...)` lists of keys and relationships, shared by the TABLES and member parsers.
 */
import { didYouMean } from "../../text/suggest.js";
import { isOp } from "../sql/tokens.js";
import type { TokenStream } from "../sql/token-stream.js";
import type { MemberKind } from "./statements.js";

/** `COMMENT = '...'`: unlike WITH SYNONYMS and LABELS, the extension requires the `=`. */
export function parseComment(ts: TokenStream): string {
  ts.expectKeyword("COMMENT");
  expectCommentEquals(ts);
  return ts.expectString("comment text").value;
}

export function expectCommentEquals(ts: TokenStream): void {
  if (!ts.acceptOp("=")) throw ts.error("Expected '=' after COMMENT keyword.");
}

/**
 * Each annotation (COMMENT, WITH SYNONYMS, LABELS) may appear once on an entry: a repeated one is an
 * error rather than the last silently winning, as the extension's annotation parser requires.
 */
export function once(ts: TokenStream, seen: Set<string>, annotation: string, entry: string): void {
  if (seen.has(annotation)) throw ts.error(`${annotation} given twice on ${entry}; each annotation may appear once`);
  seen.add(annotation);
}

/** `WITH SYNONYMS [=] ('a', ...)`, stream at WITH. */
export function parseSynonyms(ts: TokenStream): string[] {
  ts.expectKeyword("WITH");
  ts.expectKeyword("SYNONYMS");
  ts.acceptOp("=");
  ts.expectPunct("(", "after WITH SYNONYMS");
  const synonyms: string[] = [];
  do synonyms.push(ts.expectString("synonym").value);
  while (ts.acceptPunct(","));
  ts.expectPunct(")", "after the synonyms");
  return synonyms;
}

/** `(name, ...)` */
export function parseNameList(ts: TokenStream, what: string): string[] {
  ts.expectPunct("(", `before the ${what}`);
  const names: string[] = [];
  do names.push(ts.expectName(what).value);
  while (ts.acceptPunct(","));
  ts.expectPunct(")", `after the ${what}`);
  return names;
}

/** True when the stream is at an annotation that ends a member expression. */
export function atAnnotation(ts: TokenStream): boolean {
  if (ts.isKeyword("COMMENT")) {
    const next = ts.peek(1);
    return isOp(next, "=") || next?.kind === "string";
  }
  if (ts.isKeywords("WITH", "SYNONYMS")) return true;
  if (ts.isKeyword("LABELS")) return ts.isOp("=", 1) || ts.isPunct("(", 1);
  if (ts.isKeyword("USING")) return ts.isPunct("(", 1);
  if (ts.isKeywords("NON", "ADDITIVE", "BY")) return true;
  return false;
}

/** `LABELS [=] (FILTER)` */
export function parseLabels(ts: TokenStream, kind: MemberKind, name: string): boolean {
  const at = ts.next();
  if (kind === "metric")
    throw ts.error(`LABELS is not valid on a metric; it applies to facts and dimensions (metric '${name}').`, at);
  ts.acceptOp("=");
  ts.expectPunct("(", "after LABELS");
  do {
    const label = ts.expectName("label");
    if (label.value.toUpperCase() !== "FILTER") {
      throw ts.error(
        `unknown label '${label.value}' on ${kind} '${name}'; the only label is FILTER.${didYouMean(label.value.toUpperCase(), ["FILTER"])}`,
        label,
      );
    }
  } while (ts.acceptPunct(","));
  ts.expectPunct(")", "after the labels");
  return true;
}
