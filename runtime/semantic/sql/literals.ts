/**
 * DuckDB's quoted forms, scanned the way its (PostgreSQL-derived) scanner does, because a guard that
 * splits statements is only as good as its idea of where a literal ends:
 * - `'...'` standard string: `''` is a quote, a backslash is just a character;
 * - `E'...'` escape string: `\'`, `\\` and any `\c` are escapes (so `E'\''` is one quote), `''` too;
 * - `U&'...'` / `U&"..."` unicode escapes: quoted like standard strings / identifiers;
 * - `"..."` quoted identifier: `""` is a quote;
 * - `$$...$$`, `$tag$...$tag$` dollar quotes: nothing inside is special.
 * Each scanner returns the end offset (exclusive) and the literal's value.
 */
import { SemanticViewError } from "../semantic-error.js";

export interface Scanned {
  readonly end: number;
  readonly value: string;
}

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

export function unterminated(sql: string, start: number, what: string): SemanticViewError {
  const { line, column } = positionOf(sql, start);
  return new SemanticViewError("parse", `unterminated ${what} at line ${line}, column ${column} (position ${start})`);
}

/** A quoted token whose only escape is the doubled quote; `open` is the offset of the opening quote. */
export function scanQuoted(sql: string, start: number, open: number, quote: string, what: string): Scanned {
  let i = open + 1;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close < 0) throw unterminated(sql, start, what);
    if (sql[close + 1] === quote) {
      i = close + 2;
      continue;
    }
    return { end: close + 1, value: sql.slice(open + 1, close).replaceAll(quote + quote, quote) };
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** `E'...'`: the opening quote is at `open`; backslash escapes decoded as DuckDB does (octal, \xHH, \b\f\n\r\t, else the character). */
export function scanEscapeString(sql: string, start: number, open: number): Scanned {
  let value = "";
  let i = open + 1;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'") {
      if (sql[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { end: i + 1, value };
    }
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    if (i + 1 >= n) break;
    const e = sql[i + 1]!;
    const octal = /^[0-7]{1,3}/.exec(sql.slice(i + 1, i + 4));
    const hex = e === "x" ? /^[0-9A-Fa-f]{1,2}/.exec(sql.slice(i + 2, i + 4)) : null;
    if (octal) {
      value += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
      i += 1 + octal[0].length;
    } else if (hex) {
      value += String.fromCharCode(parseInt(hex[0], 16));
      i += 2 + hex[0].length;
    } else {
      value += SIMPLE_ESCAPES[e] ?? e;
      i += 2;
    }
  }
  throw unterminated(sql, start, "quoted string");
}

/** `U&'...'` or `U&"..."`: quoted like the plain form; `\XXXX`, `\+XXXXXX` and `\\` decoded in the value. */
export function scanUnicodeQuoted(sql: string, start: number, open: number, quote: string, what: string): Scanned {
  const scanned = scanQuoted(sql, start, open, quote, what);
  const value = scanned.value.replace(/\\(\\|[0-9A-Fa-f]{4}|\+[0-9A-Fa-f]{6})/g, (_m, code: string) =>
    code === "\\" ? "\\" : String.fromCodePoint(parseInt(code.replace("+", ""), 16)),
  );
  return { end: scanned.end, value };
}

/** Tag characters as DuckDB's scanner takes them: letters, `_`, any non-ASCII, digits after the first. */
const DOLLAR_DELIMITER = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** A dollar quote opening at `start` (a tag of any length), or undefined when the `$` does not open one. */
export function scanDollarQuoted(sql: string, start: number): Scanned | undefined {
  DOLLAR_DELIMITER.lastIndex = start;
  const m = DOLLAR_DELIMITER.exec(sql);
  if (!m) return undefined;
  const delimiter = m[0];
  const bodyStart = start + delimiter.length;
  const close = sql.indexOf(delimiter, bodyStart);
  if (close < 0) throw unterminated(sql, start, "dollar-quoted string");
  return { end: close + delimiter.length, value: sql.slice(bodyStart, close) };
}
