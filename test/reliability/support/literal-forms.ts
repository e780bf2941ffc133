/**
 * Generated DuckDB literals of every quoted form, each with the value DuckDB reads from it. Bodies
 * are drawn from the characters that end or open literals and statements (quotes, backslashes,
 * semicolons, dollars, comment openers and closers, CR/LF), so a lexer that misreads any form
 * misplaces a boundary.
 */
import { pick } from "../../semantic/support/random-choice.js";

export type LiteralForm = "standard" | "escape" | "dollar" | "quoted_ident" | "unicode" | "unicode_ident";

export interface GeneratedLiteral {
  readonly form: LiteralForm;
  /** The literal as written in SQL. */
  readonly sql: string;
  /** What DuckDB reads from it (the string's value or the identifier's name). */
  readonly value: string;
}

const PIECES = [
  "'",
  "''",
  '"',
  "\\",
  "\\'",
  ";",
  "$",
  "$$",
  "$a$",
  "/*",
  "*/",
  "--",
  "\n",
  "\r",
  " ",
  "E'",
  "x",
  "DROP TABLE t",
  "é",
  "U&",
];

/** A body of 0..12 hostile pieces. */
export function hostileText(random: () => number): string {
  let text = "";
  const count = Math.floor(random() * 13);
  for (let i = 0; i < count; i++) text += pick(random, PIECES);
  return text;
}

/** `E'...'` of `value`: every quote and backslash escaped, the quote either way, some letters needlessly escaped. */
function escapeLiteral(random: () => number, value: string): string {
  let body = "";
  for (const c of value) {
    if (c === "'") body += random() < 0.5 ? "\\'" : "''";
    else if (c === "\\") body += "\\\\";
    else if (c === "\n") body += random() < 0.5 ? "\\n" : "\n";
    else if (c === "\r") body += "\\r";
    else if (c === "x" && random() < 0.5) body += "\\x78";
    else if (c === ";" && random() < 0.3) body += "\\073";
    else body += c;
  }
  return `${random() < 0.5 ? "E" : "e"}'${body}'`;
}

function dollarLiteral(random: () => number, value: string): string {
  for (const tag of [pick(random, ["", "a", "tag_1", "é", "q", `long_${"x".repeat(300)}`]), "t9", "t99", "zz_end"]) {
    const delimiter = `$${tag}$`;
    // The closing delimiter must be found exactly after the body (no earlier or overlapping match).
    if (`${value}${delimiter}`.indexOf(delimiter) === value.length) return `${delimiter}${value}${delimiter}`;
  }
  throw new Error(`no dollar-quote tag fits ${JSON.stringify(value)}`);
}

/** `value` written as a string literal of `form` (an `escape` value must be ASCII: DuckDB rejects non-ASCII next to escapes). */
export function stringLiteral(random: () => number, form: "standard" | "escape" | "dollar", value: string): string {
  if (form === "standard") return `'${value.replaceAll("'", "''")}'`;
  if (form === "escape") return escapeLiteral(random, value);
  return dollarLiteral(random, value);
}

/** One literal of `form` whose value is hostile text. */
export function generateLiteral(random: () => number, form: LiteralForm): GeneratedLiteral {
  const text = hostileText(random);
  switch (form) {
    case "standard":
    case "escape":
    case "dollar": {
      const value = form === "escape" ? text.replaceAll("é", "e") : text;
      return { form, sql: stringLiteral(random, form, value), value };
    }
    case "quoted_ident": {
      const name = text === "" ? "n" : text;
      return { form, sql: `"${name.replaceAll('"', '""')}"`, value: name };
    }
    case "unicode":
    case "unicode_ident": {
      // DuckDB lexes U&'...' and U&"..." like the plain forms (then refuses to decode them); no backslashes, so the value is plain.
      const plain = text.replaceAll("\\", "/") || "u";
      const quote = form === "unicode" ? "'" : '"';
      return { form, sql: `U&${quote}${plain.replaceAll(quote, quote + quote)}${quote}`, value: plain };
    }
  }
}

/** A nested block comment around hostile text (no stray openers or closers: the nesting is explicit). */
export function blockComment(random: () => number): string {
  const text = () => hostileText(random).replace(/[/*]/g, "#");
  const nested = random() < 0.5 ? ` /* ${text()} /* ${text()} */ */ ` : " ";
  return `/* ${text()}${nested}${text()} */`;
}

/** A line comment: hostile text up to a LF or a lone CR (DuckDB ends `--` comments at either). */
export function lineComment(random: () => number): string {
  return `--${hostileText(random).replace(/[\r\n]/g, " ")}${random() < 0.5 ? "\n" : "\r"}`;
}
