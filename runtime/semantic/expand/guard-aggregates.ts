/**
 * The phantom-row guard for aggregates: a metric on a LEFT-joined table must not count the
 * NULL-extended rows that unmatched base rows produce.
 */
import { aggregateCalled } from "../sql/function-classes.js";
import type { Token } from "../sql/lexer.js";
import { tokensOf } from "../sql/references.js";
import {
  closingParen,
  isInsignificant as insignificant,
  isKeyword,
  isPunct,
  nesting,
  nextSignificantIndex,
  previousSignificant,
} from "../sql/tokens.js";

/**
 * Guards aggregates of a metric on a LEFT-joined table against the NULL-extended rows of unmatched
 * base rows: `COUNT(*)` becomes `COUNT(<key>)` and every other aggregate's first argument becomes
 * `CASE WHEN <key> IS NOT NULL THEN arg END`.
 */
export function guardAggregates(expr: string, keySql: string): string {
  const tokens = tokensOf(expr);
  let out = "";
  let i = 0;
  while (i < tokens.length) {
    const tok = tokens[i]!;
    const openIndex = nextSignificantIndex(tokens, i);
    const fn = aggregateCalled(previousSignificant(tokens, i), tok, tokens[openIndex ?? -1]);
    if (fn !== undefined && openIndex !== undefined) {
      const close = closingParen(tokens, openIndex);
      if (close === undefined) {
        out += tok.text;
        i++;
        continue;
      }
      out += tok.text + text(tokens, i + 1, openIndex + 1);
      const inner = tokens.slice(openIndex + 1, close);
      out += guardArguments(inner, keySql, fn);
      out += ")";
      i = close + 1;
      continue;
    }
    out += tok.text;
    i++;
  }
  return out;
}

function guardArguments(inner: readonly Token[], keySql: string, fn: string): string {
  const sigIdx = inner.map((t, j) => (insignificant(t) ? -1 : j)).filter((j) => j >= 0);
  if (sigIdx.length === 0) return text(inner, 0, inner.length);
  if (sigIdx.length === 1 && inner[sigIdx[0]!]!.text === "*") {
    return fn === "count" ? keySql : text(inner, 0, inner.length);
  }
  // Skip a leading DISTINCT / ALL.
  let argStart = sigIdx[0]!;
  const first = inner[argStart]!;
  if (isKeyword(first, "DISTINCT") || isKeyword(first, "ALL")) {
    argStart = sigIdx[1] ?? inner.length;
  }
  // The first argument ends at a top-level comma or ORDER BY.
  let depth = 0;
  let argEnd = inner.length;
  for (let j = argStart; j < inner.length; j++) {
    const t = inner[j]!;
    depth += nesting(t);
    if (depth === 0 && (isPunct(t, ",") || isKeyword(t, "ORDER"))) {
      argEnd = j;
      break;
    }
  }
  // Keep trailing whitespace outside the CASE.
  let argLast = argEnd - 1;
  while (argLast >= argStart && insignificant(inner[argLast]!)) argLast--;
  const arg = text(inner, argStart, argLast + 1);
  if (arg.length === 0) return text(inner, 0, inner.length);
  return (
    text(inner, 0, argStart) +
    `CASE WHEN ${keySql} IS NOT NULL THEN ${arg} END` +
    text(inner, argLast + 1, inner.length)
  );
}

function text(tokens: readonly Token[], from: number, to: number): string {
  let s = "";
  for (let j = from; j < to; j++) s += tokens[j]!.text;
  return s;
}
