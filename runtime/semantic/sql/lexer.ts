/**
 * A small SQL lexer for the statements the semantic layer inspects. It only needs to be exact
 * about token boundaries (quotes, dollar quotes, comments) so that splitting, keyword matching
 * and expression capture never look inside string literals or comments.
 */
import { SemanticViewError } from "../semantic-error.js";

export type TokenKind =
  | "ident"
  | "quoted_ident"
  | "string"
  | "dollar_string"
  | "number"
  | "op"
  | "punct"
  | "whitespace"
  | "comment";

export interface Token {
  readonly kind: TokenKind;
  /** The exact source slice. */
  readonly text: string;
  /**
   * ident: as written; quoted_ident: unquoted ("" → "); string: unescaped content ('' → ');
   * dollar_string: the body; others: same as text.
   */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

const PUNCT = new Set(["(", ")", ",", ";", ".", "[", "]", "{", "}"]);
/** Multi-character operators, longest first. */
const MULTI_OPS = ["!~~*", "!~~", "~~*", "->>", "**", ":=", "::", "<=", ">=", "<>", "!=", "||", "->", "=>", "<<", ">>", "~~", "//", "^@", "&&", "@>", "<@"];
const SINGLE_OPS = new Set(["+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "^", "&", "|", "@", "#", ":", "?", "$"]);

// Character classes by code unit (the lexer runs on every semantic statement and expression).
const isIdentStartCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
const isIdentPartCode = (c: number): boolean => isIdentStartCode(c) || (c >= 48 && c <= 57) || c === 36;
const isSpaceCode = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x3000 || c === 0x1680 || c === 0x202f || c === 0x205f;
const isIdentStart = (c: string): boolean => c !== "" && isIdentStartCode(c.charCodeAt(0));
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

/** 1-based line and column of an offset, for error messages. */
export function positionOf(sql: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < sql.length; i++) {
    if (sql[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function unterminated(sql: string, start: number, what: string): SemanticViewError {
  const { line, column } = positionOf(sql, start);
  return new SemanticViewError("parse", `unterminated ${what} at line ${line}, column ${column} (position ${start})`);
}

/** End offset (exclusive) of the quoted token opening at `start`; a doubled quote is an escape. */
function scanQuoted(sql: string, start: number, quote: string, what: string): number {
  let i = start + 1;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close < 0) throw unterminated(sql, start, what);
    if (sql[close + 1] === quote) {
      i = close + 2;
      continue;
    }
    return close + 1;
  }
}

/** End offset (exclusive) of the E'..' body opening at `start`: `\x` and `''` are escapes. */
function scanEscaped(sql: string, start: number): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "\\") i += 2;
    else if (c === "'" && sql[i + 1] === "'") i += 2;
    else if (c === "'") return i + 1;
    else i++;
  }
  throw unterminated(sql, start, "quoted string");
}

const BACKSLASH_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };

function unescapeBackslashes(body: string): string {
  return body.replace(/''/g, "'").replace(/\\(.)/gs, (_m, ch: string) => BACKSLASH_ESCAPES[ch] ?? ch);
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string): void => {
    const text = sql.slice(start, end);
    tokens.push({ kind, text, value: value ?? text, start, end });
  };
  while (i < n) {
    const c = sql[i]!;
    const start = i;
    // whitespace
    if (isSpaceCode(sql.charCodeAt(i))) {
      while (i < n && isSpaceCode(sql.charCodeAt(i))) i++;
      push("whitespace", start, i);
      continue;
    }
    // -- line comment
    if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++;
      push("comment", start, i);
      continue;
    }
    // /* block comment */ (nested)
    if (c === "/" && sql[i + 1] === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === "/" && sql[i + 1] === "*") {
          depth++;
          i += 2;
        } else if (sql[i] === "*" && sql[i + 1] === "/") {
          depth--;
          i += 2;
        } else i++;
      }
      if (depth > 0) throw unterminated(sql, start, "comment");
      push("comment", start, i);
      continue;
    }
    // 'string' (prefixes such as X'..' are lexed as ident + string; an E'..' escape string lets a
    // backslash escape the quote, so its end is found differently)
    if (c === "'") {
      const prev = tokens[tokens.length - 1];
      if (prev !== undefined && prev.end === start && prev.kind === "ident" && /^e$/i.test(prev.text)) {
        // One token with its prefix, so the E is never mistaken for a name.
        tokens.pop();
        i = scanEscaped(sql, i);
        push("string", prev.start, i, unescapeBackslashes(sql.slice(start + 1, i - 1)));
        continue;
      }
      i = scanQuoted(sql, i, "'", "quoted string");
      push("string", start, i, sql.slice(start + 1, i - 1).replace(/''/g, "'"));
      continue;
    }
    // "quoted identifier"
    if (c === '"') {
      i = scanQuoted(sql, i, '"', "quoted identifier");
      push("quoted_ident", start, i, sql.slice(start + 1, i - 1).replace(/""/g, '"'));
      continue;
    }
    // $$body$$ or $tag$body$tag$ (a lone $ or $1 parameter is an operator/ident)
    if (c === "$") {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 256));
      if (m) {
        const delim = m[0];
        const bodyStart = i + delim.length;
        const close = sql.indexOf(delim, bodyStart);
        if (close < 0) throw unterminated(sql, start, "dollar-quoted string");
        i = close + delim.length;
        push("dollar_string", start, i, sql.slice(bodyStart, close));
        continue;
      }
      if (isDigit(sql[i + 1] ?? "")) {
        i++;
        while (i < n && isDigit(sql[i]!)) i++;
        push("op", start, i); // positional parameter $1
        continue;
      }
    }
    // numbers: 12, 1.5, .5, 1e10, 0x1F, 1_000
    if (isDigit(c) || (c === "." && isDigit(sql[i + 1] ?? ""))) {
      if (c === "0" && (sql[i + 1] === "x" || sql[i + 1] === "X")) {
        i += 2;
        while (i < n && /[0-9A-Fa-f_]/.test(sql[i]!)) i++;
      } else {
        while (i < n && (isDigit(sql[i]!) || sql[i] === "_")) i++;
        if (sql[i] === "." && isDigit(sql[i + 1] ?? "")) {
          i++;
          while (i < n && (isDigit(sql[i]!) || sql[i] === "_")) i++;
        } else if (sql[i] === "." && !isIdentStart(sql[i + 1] ?? "")) {
          i++; // "1." is a number
        }
        if ((sql[i] === "e" || sql[i] === "E") && /[0-9+-]/.test(sql[i + 1] ?? "")) {
          const save = i;
          i++;
          if (sql[i] === "+" || sql[i] === "-") i++;
          if (isDigit(sql[i] ?? "")) while (i < n && isDigit(sql[i]!)) i++;
          else i = save;
        }
      }
      push("number", start, i);
      continue;
    }
    if (isIdentStartCode(sql.charCodeAt(i))) {
      while (i < n && isIdentPartCode(sql.charCodeAt(i))) i++;
      push("ident", start, i);
      continue;
    }
    if (PUNCT.has(c)) {
      i++;
      push("punct", start, i);
      continue;
    }
    const multi = MULTI_OPS.find((op) => sql.startsWith(op, i));
    if (multi) {
      i += multi.length;
      push("op", start, i);
      continue;
    }
    if (SINGLE_OPS.has(c)) {
      i++;
      push("op", start, i);
      continue;
    }
    // Anything else (stray backtick etc.): a single-character op so nothing is lost.
    i++;
    push("op", start, i);
  }
  return tokens;
}

/** Tokens without whitespace and comments. */
export function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== "whitespace" && t.kind !== "comment");
}
