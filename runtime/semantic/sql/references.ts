/**
 * References inside member expressions: finding and rewriting `q.name` pairs and bare names.
 * Expressions are kept as the user wrote them; only whole identifier references are substituted
 * (never inside strings, quoted text or comments), so the lexer's exact token slices rebuild the
 * text around each replacement. Read by the DDL parser (YAML owners) and by the expander.
 */
import { LruCache, stringBytes } from "../lru-cache.js";
import { tokenize, type Token } from "./lexer.js";
import {
  isInsignificant as insignificant,
  isName,
  isPunct,
  isTypePosition,
  nextSignificantIndex,
  previousSignificant,
  typesLiteral,
} from "./tokens.js";

/**
 * Member expressions repeat across requests: keep their token lists, process-wide, bounded by count
 * and bytes. Text over 4 KB (a where_clause with a large filter value) is never kept: it rarely
 * repeats, and each token holds its own copy of the literal's value.
 */
const MAX_CACHED_EXPRESSION = 4096;
const tokenCache = new LruCache<string, Token[]>({
  maxEntries: 2048,
  maxBytes: 4 * 1024 * 1024,
  sizeOf: (expr, tokens) => 3 * stringBytes(expr) + 96 * tokens.length, // key, token texts and values, token objects
});

/** Tokens of an expression or name, cached (callers must not mutate the array). */
export function tokensOf(expr: string): Token[] {
  let tokens = tokenCache.get(expr);
  if (tokens === undefined) {
    tokens = tokenize(expr);
    if (expr.length <= MAX_CACHED_EXPRESSION) tokenCache.set(expr, tokens);
  }
  return tokens;
}

const isDot = (t: Token | undefined): boolean => isPunct(t, ".");
const isOpenParen = (t: Token | undefined): boolean => isPunct(t, "(");

/** A reference found in an expression: `qualifier.name` or a bare `name`. */
export interface Reference {
  /** Unquoted qualifier (table alias) or undefined for a bare name. */
  readonly qualifier: string | undefined;
  /** Unquoted name. */
  readonly name: string;
}

/**
 * Rewrites references. `replace` sees every `q.name` pair (qualifier not itself preceded by a dot)
 * and every bare name that is not part of a dotted chain, not a function call and not a quoted
 * string; returning undefined keeps the original text.
 */
export function rewriteReferences(expr: string, replace: (ref: Reference) => string | undefined): string {
  const tokens = tokensOf(expr);
  // Index of the previous/next significant token for each position.
  const sig: number[] = [];
  tokens.forEach((t, i) => {
    if (!insignificant(t)) sig.push(i);
  });
  let out = "";
  let k = 0;
  while (k < sig.length) {
    const i = sig[k]!;
    const tok = tokens[i]!;
    const prev = k > 0 ? tokens[sig[k - 1]!] : undefined;
    const next = tokens[sig[k + 1] ?? -1];
    const afterNext = tokens[sig[k + 2] ?? -1];
    const gapBefore = plain(tokens.slice(k > 0 ? sig[k - 1]! + 1 : 0, i));
    out += gapBefore;
    if (isName(tok) && !isDot(prev) && isDot(next) && isName(afterNext)) {
      const third = tokens[sig[k + 3] ?? -1];
      // A longer chain (a.b.c) is left alone except for its leading pair: columns of struct
      // type are still qualified by their table alias.
      const replacement = isOpenParen(third) ? undefined : replace({ qualifier: tok.value, name: afterNext.value });
      if (replacement !== undefined && !isDot(third)) {
        out += replacement;
        k += 3;
        continue;
      }
      out += plain(tokens.slice(i, sig[k + 2]! + 1));
      k += 3;
      continue;
    }
    if (
      isName(tok) &&
      !isDot(prev) &&
      !isDot(next) &&
      !isOpenParen(next) &&
      !isTypePosition(prev) &&
      !typesLiteral(tok, next)
    ) {
      const replacement = replace({ qualifier: undefined, name: tok.value });
      out += replacement ?? tok.text;
      k += 1;
      continue;
    }
    out += tok.text;
    k += 1;
  }
  out += plain(tokens.slice(sig.length > 0 ? sig[sig.length - 1]! + 1 : 0));
  return out;
}

/**
 * Token text with comments turned into a space: expressions are spliced into one-line SQL, where a
 * `--` comment would swallow the rest of the line.
 */
function plain(tokens: readonly Token[]): string {
  let s = "";
  for (const t of tokens) s += t.kind === "comment" ? " " : t.text;
  return s;
}

/** Rewrites only the qualifier of `q.name` pairs (used to re-point a table alias). */
export function rewriteQualifiers(expr: string, replace: (qualifier: string) => string | undefined): string {
  const tokens = tokensOf(expr);
  let out = "";
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    const prev = previousSignificant(tokens, i);
    const next = tokens[nextSignificantIndex(tokens, i) ?? -1];
    if (isName(tok) && !isDot(prev) && isDot(next)) {
      const replacement = replace(tok.value);
      out += replacement ?? tok.text;
    } else {
      out += tok.text;
    }
  }
  return out;
}

/** Qualifiers (`q` of `q.x`) used in an expression, unquoted. */
export function qualifiersOf(expr: string): string[] {
  const found: string[] = [];
  rewriteQualifiers(expr, (q) => {
    found.push(q);
    return undefined;
  });
  return found;
}
