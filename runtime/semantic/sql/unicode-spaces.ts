/**
 * DuckDB's character classes, which the lexer must share for every code point (a guard that reads
 * whitespace where DuckDB reads an identifier character can be shown a `;` it thinks is quoted).
 *
 * DuckDB's scanner (PostgreSQL's flex rules) knows only ASCII: whitespace is space, tab, LF, FF and
 * CR (not VT), identifiers start with a letter or `_` and continue with digits and `$` too, and every
 * byte of a non-ASCII character belongs to an identifier. Before scanning, the parser replaces 18
 * Unicode spaces by an ASCII space (`Parser::StripUnicodeSpaces`), but only where its own simple
 * state machine is not inside a quote, a dollar quote or a `--` comment; that machine knows no
 * block comments and no backslash escapes and stops short of the last two bytes, so the same
 * character is whitespace in one place and part of an identifier in another. `scannerText` replays
 * it byte for byte, so the lexer can classify positions exactly as the scanner will.
 */

/** The 18 code points the parser may replace (U+00A0, U+2000–U+200B, U+202F, U+205F, U+2060, U+3000, U+FEFF). */
const CANDIDATE = /[\u00a0\u2000-\u200b\u202f\u205f\u2060\u3000\ufeff]/;

const QUOTE = new Set([0x22, 0x27]);
const DOLLAR = 0x24;
const isTagStart = (b: number): boolean =>
  (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b >= 0x80;
const isTagPart = (b: number): boolean => isTagStart(b) || (b >= 0x30 && b <= 0x39);

/** Bytes of the Unicode space starting at `pos` (0 when none), as the parser's pre-pass matches them. */
function unicodeSpaceAt(q: Uint8Array, pos: number): number {
  const b0 = q[pos]!;
  const b1 = q[pos + 1]!;
  const b2 = q[pos + 2]!;
  if (b0 === 0xc2) return b1 === 0xa0 ? 2 : 0;
  if (b0 === 0xe2 && b1 === 0x80) return (b2 >= 0x80 && b2 <= 0x8b) || b2 === 0xaf ? 3 : 0;
  if (b0 === 0xe2 && b1 === 0x81) return b2 === 0x9f || b2 === 0xa0 ? 3 : 0;
  if (b0 === 0xe3) return b1 === 0x80 && b2 === 0x80 ? 3 : 0;
  if (b0 === 0xef) return b1 === 0xbb && b2 === 0xbf ? 3 : 0;
  return 0;
}

/** Byte offsets of the Unicode spaces the parser replaces in the UTF-8 text `q`. */
function replacedSpaces(q: Uint8Array): number[] {
  const spaces: number[] = [];
  const size = q.length;
  let pos = 0;
  let state: "regular" | "quote" | "dollar" | "comment" = "regular";
  let quote = 0;
  let tagStart = 0;
  let tagLength = 0;
  while (pos < size) {
    if (state === "regular") {
      if (pos + 2 >= size) break;
      const b = q[pos]!;
      if (unicodeSpaceAt(q, pos) > 0) {
        spaces.push(pos);
      } else if (QUOTE.has(b)) {
        quote = b;
        state = "quote";
      } else if (b === DOLLAR && (q[pos + 1] === DOLLAR || isTagStart(q[pos + 1]!))) {
        // An (optionally tagged) dollar quote: read the tag up to its `$`; any other byte ends the attempt.
        tagStart = ++pos;
        while (pos + 2 < size && q[pos] !== DOLLAR && isTagPart(q[pos]!)) pos++;
        if (pos + 2 >= size) break;
        if (q[pos] !== DOLLAR) continue; // back to regular at this byte
        tagLength = pos - tagStart;
        state = "dollar";
        continue; // the closing search starts at this `$`
      } else if (b === 0x2d && q[pos + 1] === 0x2d) {
        state = "comment";
      }
      pos++;
    } else if (state === "quote") {
      if (pos + 1 >= size) break;
      if (q[pos] === quote) {
        if (q[pos + 1] === quote) pos++;
        else state = "regular";
      }
      pos++;
    } else if (state === "dollar") {
      if (pos + 2 >= size) break;
      if (q[pos] === DOLLAR && size - (pos + 1) >= tagLength + 1 && q[pos + tagLength + 1] === DOLLAR) {
        let same = true;
        for (let k = 0; k < tagLength && same; k++) same = q[pos + 1 + k] === q[tagStart + k];
        if (same) {
          pos += tagLength + 1; // regular reading resumes at the closing `$` itself
          state = "regular";
          continue;
        }
      }
      pos++;
    } else {
      if (q[pos] === 0x0a || q[pos] === 0x0d) state = "regular";
      else pos++;
    }
  }
  return spaces;
}

/** UTF-8 length of the UTF-16 code unit at `i` (a pair counts 4 on its first unit, 0 on its second; a lone surrogate 3). */
function utf8Length(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 4 : 3;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const p = s.charCodeAt(i - 1);
    return p >= 0xd800 && p <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/**
 * The text DuckDB's scanner reads for `sql`: the same length (every replaced character is one UTF-16
 * unit), with each Unicode space the parser replaces turned into an ASCII space. Returns `sql`
 * itself when it holds none of the candidates (the common case costs one regular-expression test).
 */
export function scannerText(sql: string): string {
  if (!CANDIDATE.test(sql)) return sql;
  const bytes = Buffer.from(sql, "utf8"); // lone surrogates become U+FFFD, as they do on the way to DuckDB
  const spaces = replacedSpaces(bytes);
  if (spaces.length === 0) return sql;
  const units = sql.split("");
  let next = 0;
  for (let i = 0, byte = 0; i < sql.length && next < spaces.length; byte += utf8Length(sql, i), i++) {
    if (byte === spaces[next]) {
      units[i] = " ";
      next++;
    }
  }
  return units.join("");
}

/** ASCII whitespace as DuckDB's scanner takes it: space, \t, \n, \f, \r (a vertical tab is not). */
export const isScannerSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** An identifier's first character: a letter, `_`, or any non-ASCII unit (after `scannerText`). */
export const isIdentStartCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;

/** An identifier's later character: also a digit or `$`. */
export const isIdentPartCode = (c: number): boolean => isIdentStartCode(c) || (c >= 48 && c <= 57) || c === 36;
