/**
 * A cursor over the significant tokens of one statement, with the error helpers the DDL parser
 * needs: every parse error carries the line/column and a caret line, like DuckDB's Parser Error.
 */
import { SemanticViewError } from "../semantic-error.js";
import { positionOf, significant, tokenize, type Token } from "./lexer.js";
import { didYouMean } from "../../text/suggest.js";
import { isKeyword, isName, isOp, isPunct, keywordOf } from "./tokens.js";

export class TokenStream {
  readonly tokens: Token[];
  index = 0;

  constructor(readonly sql: string) {
    this.tokens = significant(tokenize(sql));
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset];
  }

  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  next(): Token {
    const token = this.tokens[this.index];
    if (token === undefined) throw this.error("unexpected end of statement");
    this.index++;
    return token;
  }

  /** True when the token at `offset` is the unquoted keyword. */
  isKeyword(keyword: string, offset = 0): boolean {
    return isKeyword(this.peek(offset), keyword);
  }

  /** True when the next tokens are these keywords, in order. */
  isKeywords(...keywords: string[]): boolean {
    return keywords.every((k, i) => this.isKeyword(k, i));
  }

  acceptKeyword(...keywords: string[]): boolean {
    if (!this.isKeywords(...keywords)) return false;
    this.index += keywords.length;
    return true;
  }

  expectKeyword(keyword: string, context?: string): Token {
    const token = this.peek();
    if (isKeyword(token, keyword)) return this.next();
    const hint = keywordOf(token) === "" ? "" : didYouMean(keywordOf(token), [keyword], 2);
    throw this.error(`expected ${keyword}${context ? ` ${context}` : ""}, found ${describe(token)}.${hint}`, token);
  }

  isPunct(text: string, offset = 0): boolean {
    return isPunct(this.peek(offset), text);
  }

  acceptPunct(text: string): boolean {
    if (!this.isPunct(text)) return false;
    this.index++;
    return true;
  }

  expectPunct(text: string, context?: string): Token {
    if (this.isPunct(text)) return this.next();
    throw this.error(`expected '${text}'${context ? ` ${context}` : ""}, found ${describe(this.peek())}`);
  }

  isOp(text: string, offset = 0): boolean {
    return isOp(this.peek(offset), text);
  }

  acceptOp(text: string): boolean {
    if (!this.isOp(text)) return false;
    this.index++;
    return true;
  }

  /** An identifier (plain or quoted); returns its name (quotes stripped). */
  expectName(what: string): Token {
    const token = this.peek();
    // `""` names nothing: the extension rejects it in every name and alias slot.
    if (token?.kind === "quoted_ident" && token.value === "")
      throw this.error(`empty quoted identifier ("") is not a valid ${what}`);
    if (isName(token)) return this.next();
    throw this.error(`expected ${what}, found ${describe(token)}`);
  }

  expectString(what: string): Token {
    const token = this.peek();
    if (token !== undefined && token.kind === "string") return this.next();
    throw this.error(`expected ${what} (a quoted string), found ${describe(token)}`);
  }

  /** A parse error pointing at `token` (default: the current token, or the end). */
  error(message: string, token: Token | undefined = this.peek()): SemanticViewError {
    return parseError(this.sql, message, token === undefined ? this.sql.trimEnd().length : token.start);
  }
}

export function describe(token: Token | undefined): string {
  if (token === undefined) return "end of statement";
  return `'${token.text}'`;
}

/** `<message> at line L, column C` followed by DuckDB-style `LINE L: ...` and a caret. */
export function parseError(
  sql: string,
  message: string,
  offset: number,
  kind: "parse" | "invalid" = "parse",
): SemanticViewError {
  const { line, column } = positionOf(sql, offset);
  const lineText = sql.split("\n")[line - 1] ?? "";
  const prefix = `LINE ${line}: `;
  return new SemanticViewError(
    kind,
    `${message} (line ${line}, column ${column})\n${prefix}${lineText}\n${" ".repeat(prefix.length + column - 1)}^`,
  );
}
