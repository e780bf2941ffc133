/**
 * Lifts the literal values out of the `where_clause` arguments of a statement's `semantic_view()`
 * calls, so that every value of one filter shape shares one rewritten statement, one type probe and
 * one prepared statement (the values are bound as parameters: bind-lifted.ts).
 *
 * Lexical and conservative: a literal is lifted only where it is a whole operand of a comparison,
 * LIKE/ILIKE (and ESCAPE), BETWEEN or an IN list — preceded by the operator and followed by `)`,
 * `,`, AND, OR, ESCAPE or a CASE word — so DuckDB resolves its parameter's type from the other
 * operand. Every other literal stays text (the shape then includes it). A statement with parameters
 * of its own (`?`, `$1`, `$name`), or a where_clause that does not lex, is not lifted at all.
 *
 * Forms: `'text'` (not E'', U&'' or a dollar string), integers `42`, decimals `12.50`, doubles `1e21`
 * (each with an optional unary minus), TRUE/FALSE, and `DATE '...'`, `TIMESTAMP '...'`,
 * `TIMESTAMPTZ '...'` (written `CAST($k AS <type>)` so the value keeps its own type).
 */
import { tokenize, type Token } from "../sql/lexer.js";
import { isInsignificant, isKeyword, isOp, isPunct, keywordOf } from "../sql/tokens.js";
import { findCalls } from "./find-calls.js";
import type { LiftedLiteral, LiftedStatement } from "../semantic-layer.js";

export type { LiftedLiteral, LiftedStatement };

const COMPARISONS = new Set(["=", "==", "<>", "!=", "<", "<=", ">", ">="]);
const BEFORE_WORDS = new Set(["LIKE", "ILIKE", "ESCAPE", "BETWEEN"]);
const AFTER_WORDS = new Set(["AND", "OR", "ESCAPE", "THEN", "ELSE", "END", "WHEN"]);
const TYPED = new Map<string, "date" | "timestamp" | "timestamptz">([
  ["DATE", "date"],
  ["TIMESTAMP", "timestamp"],
  ["TIMESTAMPTZ", "timestamptz"],
]);
/** An explicit UTC offset: a TIMESTAMPTZ literal without one depends on the session's TimeZone. */
const HAS_OFFSET = /(?:[+-]\d{2}(?::?\d{2})?|Z)$/;

const isParameter = (t: Token): boolean => t.kind === "op" && (t.text === "?" || t.text.startsWith("$"));

let textLifts = 0;
/** Statements lexed for their values so far (tests: a builder query's values arrive lifted). */
export const textLiftCount = (): number => textLifts;

/** The statement's shape and values, or undefined when nothing can be lifted. */
export function liftWhereClauseValues(statement: string): LiftedStatement | undefined {
  textLifts++;
  let tokens: Token[];
  try {
    tokens = tokenize(statement);
  } catch {
    return undefined;
  }
  if (tokens.some(isParameter)) return undefined;
  const literals: LiftedLiteral[] = [];
  let shape = "";
  let cursor = 0;
  for (const call of findCalls(tokens)) {
    const argument = whereClauseToken(tokens, call.open, call.close);
    if (argument === undefined) continue;
    const template = liftPredicate(argument.value, literals);
    if (template === undefined) return undefined;
    if (template === argument.value) continue;
    shape += `${statement.slice(cursor, argument.start)}'${template.replaceAll("'", "''")}'`;
    cursor = argument.end;
  }
  if (literals.length === 0) return undefined;
  return { shape: shape + statement.slice(cursor), literals };
}

/** The `'...'` token of `where_clause := '...'` at the call's top level. */
function whereClauseToken(tokens: readonly Token[], open: number, close: number): Token | undefined {
  const sig = tokens.slice(open + 1, close).filter((t) => !isInsignificant(t));
  let depth = 0;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i]!;
    if (isPunct(t, "(") || isPunct(t, "[")) depth++;
    else if (isPunct(t, ")") || isPunct(t, "]")) depth--;
    else if (depth === 0 && t.kind === "ident" && t.value.toLowerCase() === "where_clause") {
      const value = sig[i + 2];
      const plain = value !== undefined && value.kind === "string" && value.text.startsWith("'");
      if ((isOp(sig[i + 1], ":=") || isOp(sig[i + 1], "=>")) && plain) return value;
    }
  }
  return undefined;
}

interface Found {
  readonly literal: LiftedLiteral | undefined;
  /** Significant tokens it spans. */
  readonly length: number;
}

/** The predicate with its liftable literals replaced by `$k` (pushed to `literals`); undefined: do not lift. */
function liftPredicate(text: string, literals: LiftedLiteral[]): string | undefined {
  let sig: Token[];
  try {
    sig = tokenize(text).filter((t) => !isInsignificant(t));
  } catch {
    return undefined;
  }
  if (sig.some(isParameter)) return undefined;
  const inList: boolean[] = [];
  let last: { start: number; end: number } | undefined;
  let out = "";
  let cursor = 0;
  for (let j = 0; j < sig.length; j++) {
    const t = sig[j]!;
    if (isPunct(t, "(")) inList.push(isKeyword(sig[j - 1], "IN"));
    if (isPunct(t, ")")) inList.pop();
    const found = literalAt(sig, j);
    if (found === undefined) continue;
    const end = j + found.length;
    const prev = sig[j - 1];
    const before =
      (prev?.kind === "op" && COMPARISONS.has(prev.text)) ||
      BEFORE_WORDS.has(keywordOf(prev)) ||
      ((isPunct(prev, "(") || isPunct(prev, ",")) && inList[inList.length - 1] === true) ||
      (isKeyword(prev, "AND") && last?.end === j - 1 && isKeyword(sig[last.start - 1], "BETWEEN"));
    const next = sig[end];
    const after = next === undefined || isPunct(next, ")") || isPunct(next, ",") || AFTER_WORDS.has(keywordOf(next));
    if (found.literal !== undefined && before && after) {
      const k = literals.push(found.literal);
      out += text.slice(cursor, t.start) + placeholderOf(found.literal, k);
      cursor = sig[end - 1]!.end;
    }
    last = { start: j, end };
    j = end - 1;
  }
  return out + text.slice(cursor);
}

/** Where a lifted value stands in the shape: typed date/time values keep their type through a CAST. */
export function placeholderOf(literal: LiftedLiteral, k: number): string {
  const cast = placeholderCast(literal);
  return cast === "" ? `$${k}` : `CAST($${k} AS ${cast})`;
}

/** The type a literal's placeholder is cast to (`DATE` ...), or "" for a bare `$k`. */
export function placeholderCast({ kind }: LiftedLiteral): string {
  return kind === "date" || kind === "timestamp" || kind === "timestamptz" ? kind.toUpperCase() : "";
}

/** A literal starting at significant token `j` (its value undefined when it is one that stays text). */
function literalAt(sig: readonly Token[], j: number): Found | undefined {
  const t = sig[j]!;
  if (t.kind === "string")
    return { literal: t.text.startsWith("'") ? { kind: "string", value: t.value } : undefined, length: 1 };
  if (t.kind === "number") return { literal: numberLiteral(t.text, false), length: 1 };
  if (isOp(t, "-") && sig[j + 1]?.kind === "number")
    return { literal: numberLiteral(sig[j + 1]!.text, true), length: 2 };
  if (t.kind !== "ident") return undefined;
  const word = t.value.toUpperCase();
  if (word === "TRUE" || word === "FALSE") return { literal: { kind: "boolean", value: word === "TRUE" }, length: 1 };
  const typed = TYPED.get(word);
  const value = sig[j + 1];
  if (typed === undefined || value === undefined || value.kind !== "string" || !value.text.startsWith("'"))
    return undefined;
  if (typed === "timestamptz" && !HAS_OFFSET.test(value.value.trim())) return { literal: undefined, length: 2 };
  return { literal: { kind: typed, text: value.value }, length: 2 };
}

/** A number literal's text (without its sign) as DuckDB reads it; undefined: a form that stays text. */
export function numberLiteral(text: string, negative: boolean): LiftedLiteral | undefined {
  const sign = negative ? "-" : "";
  if (/^\d+$/.test(text)) return { kind: "integer", value: BigInt(sign + text) };
  const decimal = /^(\d+)\.(\d+)$/.exec(text);
  if (decimal) {
    const digits = decimal[1]!.length + decimal[2]!.length;
    return { kind: "decimal", unscaled: BigInt(sign + decimal[1]! + decimal[2]!), scale: decimal[2]!.length, digits };
  }
  if (/^\d+(?:\.\d+)?[eE][+-]?\d+$/.test(text)) return { kind: "double", text: sign + text };
  return undefined; // 0x1F, 1_000, .5, 5.: stay text
}
