/**
 * Token predicates and paren matching shared by DDL parsing, CREATE validation, expansion and
 * introspection, so every reader of a statement agrees on what a name, keyword or call looks like.
 */
import type { Token } from "./lexer.js";

/** An identifier, plain or quoted. */
export const isName = (t: Token | undefined): t is Token =>
  t !== undefined && (t.kind === "ident" || t.kind === "quoted_ident");

/** The unquoted keyword, case-insensitively (a quoted identifier is never a keyword). */
export const isKeyword = (t: Token | undefined, keyword: string): boolean =>
  t !== undefined && t.kind === "ident" && t.value.toUpperCase() === keyword.toUpperCase();

export const isPunct = (t: Token | undefined, text: string): boolean =>
  t !== undefined && t.kind === "punct" && t.text === text;

export const isOp = (t: Token | undefined, text: string): boolean =>
  t !== undefined && t.kind === "op" && t.text === text;

/** Whitespace and comments. */
export const isInsignificant = (t: Token): boolean => t.kind === "whitespace" || t.kind === "comment";

/** `x::date`, `CAST(x AS date)`: the token after `prev` names a type, never a member. */
export const isTypePosition = (prev: Token | undefined): boolean => isOp(prev, "::") || isKeyword(prev, "AS");

/**
 * `DATE '2020-01-01'`, `TIMESTAMP '...'`, `INTERVAL '1 day'`: an unquoted word directly followed by
 * a string literal types the literal; it is never a column or member reference.
 */
export const typesLiteral = (t: Token | undefined, next: Token | undefined): boolean =>
  t?.kind === "ident" && next?.kind === "string";

/** Index of the `)` matching the `(` at `open`, or undefined when it is never closed. */
export function closingParen(tokens: readonly Token[], open: number): number | undefined {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (isPunct(t, "(")) depth++;
    else if (isPunct(t, ")") && --depth === 0) return j;
  }
  return undefined;
}

/** The significant token before index `i`. */
export function previousSignificant(tokens: readonly Token[], i: number): Token | undefined {
  for (let j = i - 1; j >= 0; j--) if (!isInsignificant(tokens[j]!)) return tokens[j];
  return undefined;
}

/** Index of the significant token after index `i`. */
export function nextSignificantIndex(tokens: readonly Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (!isInsignificant(tokens[j]!)) return j;
  return undefined;
}

/** An unquoted word in upper case (for matching against keyword lists), or "" for any other token. */
export const keywordOf = (t: Token | undefined): string => (t?.kind === "ident" ? t.value.toUpperCase() : "");

/**
 * How a token changes the bracket depth: +1 for `(`, `[` or `{` (lists and struct literals), -1 for
 * the closing ones, else 0. A comma or keyword counts as top level only at depth 0.
 */
export function nesting(t: Token): 1 | -1 | 0 {
  if (t.kind !== "punct") return 0;
  if (t.text === "(" || t.text === "[" || t.text === "{") return 1;
  if (t.text === ")" || t.text === "]" || t.text === "}") return -1;
  return 0;
}
