/**
 * A small SQL lexer for the stand-in: enough to rewrite statements without breaking string
 * literals, quoted identifiers or comments (a naive regex mangles `'03:04:05'`).
 */
export type TokenKind = "string" | "quoted" | "word" | "number" | "space" | "comment" | "punct";

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;
const NUMBER = /[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?/y;
const SPACE = /\s+/y;

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const sticky = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(sql);
    return m ? m[0] : undefined;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    let token: Token;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length)
          throw new SyntaxError(`unterminated ${c === "'" ? "string literal" : "quoted identifier"}`);
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      token = { kind: c === "'" ? "string" : "quoted", text: sql.slice(i, j + 1) };
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      token = { kind: "comment", text: sql.slice(i, end < 0 ? sql.length : end) };
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      token = { kind: "comment", text: sql.slice(i, end < 0 ? sql.length : end + 2) };
    } else {
      const space = sticky(SPACE);
      const word = space === undefined ? sticky(WORD) : undefined;
      const number = space === undefined && word === undefined ? sticky(NUMBER) : undefined;
      if (space !== undefined) token = { kind: "space", text: space };
      else if (word !== undefined) token = { kind: "word", text: word };
      else if (number !== undefined) token = { kind: "number", text: number };
      else token = { kind: "punct", text: c };
    }
    tokens.push(token);
    i += token.text.length;
  }
  return tokens;
}

/** The identifier a word or quoted token names, folded as Snowflake does (unquoted → upper case). */
export function identifierOf(token: Token): string | undefined {
  if (token.kind === "word") return token.text.toUpperCase();
  if (token.kind === "quoted") return token.text.slice(1, -1).replaceAll('""', '"');
  return undefined;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function isKeyword(token: Token | undefined, keyword: string): boolean {
  return token !== undefined && token.kind === "word" && token.text.toUpperCase() === keyword;
}

export function untokenize(tokens: readonly Token[]): string {
  return tokens.map((t) => t.text).join("");
}

const BACKSLASH_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" };

/**
 * A Snowflake (or Spark) string literal as DuckDB reads it: a backslash escapes the next character
 * there (`'\\'` is one backslash, `'\n'` a newline), while DuckDB takes backslashes literally.
 */
export function backslashStringToDuckDB(literal: string): string {
  if (!literal.includes("\\")) return literal;
  let value = "";
  const body = literal.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\" && i + 1 < body.length) value += BACKSLASH_ESCAPES[body[++i]!] ?? body[i];
    else if (c === "'" && body[i + 1] === "'") value += body[i++];
    else value += c;
  }
  return `'${value.replaceAll("'", "''")}'`;
}
