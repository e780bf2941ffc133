/**
 * A small SQL lexer for the statements the semantic layer inspects. It must agree with DuckDB's
 * scanner about token boundaries (every quoted form in ./literals.ts, nested comments, `--` up to
 * CR or LF, operators cut before a comment) so that the single-statement guard, splitting, keyword
 * matching and expression capture never look inside a literal or comment, nor miss one. It reads
 * the text DuckDB's scanner reads (./unicode-spaces.ts: the Unicode spaces the parser replaces first)
 * with the scanner's character classes, so whitespace and identifiers split where DuckDB splits them;
 * token texts stay exact slices of the input, values are what DuckDB reads.
 */
import {
  positionOf,
  scanDollarQuoted,
  scanEscapeString,
  scanQuoted,
  scanUnicodeQuoted,
  unterminated,
} from "./literals.js";
import { isIdentPartCode, isIdentStartCode, isScannerSpace, scannerText } from "./unicode-spaces.js";

export { positionOf };

export type TokenKind =
  "ident" | "quoted_ident" | "string" | "dollar_string" | "number" | "op" | "punct" | "whitespace" | "comment";

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
const MULTI_OPS = [
  "!~~*",
  "!~~",
  "~~*",
  "->>",
  "**",
  ":=",
  "::",
  "<=",
  ">=",
  "<>",
  "!=",
  "||",
  "->",
  "=>",
  "<<",
  ">>",
  "~~",
  "//",
  "^@",
  "&&",
  "@>",
  "<@",
];
const SINGLE_OPS = new Set(["+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "^", "&", "|", "@", "#", ":", "?", "$"]);

const isIdentStart = (c: string): boolean => c !== "" && isIdentStartCode(c.charCodeAt(0));
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

/** Does a comment open at any offset in [from, to)? */
function startsComment(sql: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (sql.startsWith("--", k) || sql.startsWith("/*", k)) return true;
  return false;
}

export function tokenize(source: string): Token[] {
  const sql = scannerText(source);
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  // Mostly nothing was replaced (the same string): a token's value is then its text, sliced once.
  const rewritten = sql !== source;
  const push = (kind: TokenKind, start: number, end: number, value?: string): void => {
    const text = source.slice(start, end);
    tokens.push({ kind, text, value: value ?? (rewritten ? sql.slice(start, end) : text), start, end });
  };
  while (i < n) {
    const c = sql[i]!;
    const start = i;
    // whitespace
    if (isScannerSpace(sql.charCodeAt(i))) {
      while (i < n && isScannerSpace(sql.charCodeAt(i))) i++;
      push("whitespace", start, i);
      continue;
    }
    // -- line comment
    if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n" && sql[i] !== "\r") i++;
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
    // E'escape string', U&'unicode string', U&"unicode identifier": only where a token starts.
    if ((c === "e" || c === "E") && sql[i + 1] === "'") {
      const scanned = scanEscapeString(sql, start, i + 1);
      i = scanned.end;
      push("string", start, i, scanned.value);
      continue;
    }
    if ((c === "u" || c === "U") && sql[i + 1] === "&" && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
      const quote = sql[i + 2]!;
      const scanned = scanUnicodeQuoted(
        sql,
        start,
        i + 2,
        quote,
        quote === "'" ? "quoted string" : "quoted identifier",
      );
      i = scanned.end;
      push(quote === "'" ? "string" : "quoted_ident", start, i, scanned.value);
      continue;
    }
    // 'string' (X'..', B'..', N'..' lex as ident + string: the same boundaries)
    if (c === "'") {
      const scanned = scanQuoted(sql, start, i, "'", "quoted string");
      i = scanned.end;
      push("string", start, i, scanned.value);
      continue;
    }
    // "quoted identifier"
    if (c === '"') {
      const scanned = scanQuoted(sql, start, i, '"', "quoted identifier");
      i = scanned.end;
      push("quoted_ident", start, i, scanned.value);
      continue;
    }
    // $$body$$ or $tag$body$tag$ (a lone $ or $1 parameter is an operator/ident)
    if (c === "$") {
      const scanned = scanDollarQuoted(sql, start);
      if (scanned !== undefined) {
        i = scanned.end;
        push("dollar_string", start, i, scanned.value);
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
    // As in DuckDB's scanner, an operator ends where a comment starts (`1 //* c */ 2` is 1 / 2).
    const multi = MULTI_OPS.find((op) => sql.startsWith(op, i) && !startsComment(sql, i + 1, i + op.length));
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
