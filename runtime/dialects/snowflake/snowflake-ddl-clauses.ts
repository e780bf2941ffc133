/**
 * `GET_DDL('SEMANTIC_VIEW', v)` split into what `--fixture` translates: the entries of the TABLES,
 * RELATIONSHIPS, FACTS, DIMENSIONS and METRICS clauses, the view comment, and the view-level
 * properties after them (CREATE SEMANTIC VIEW grammar, docs.snowflake.com/en/sql-reference/sql/
 * create-semantic-view). Properties that only serve Cortex Analyst, governance or refreshes are
 * named in `stripped`; anything else is returned in `unknown` to be listed as not translated.
 */
import { isKeyword } from "../../semantic/sql/tokens.js";
import { splitTopLevel, TokenCursor, tokensOf, type Token } from "../fixture/token-cursor.js";

export const MEMBER_CLAUSES = ["FACTS", "DIMENSIONS", "METRICS"] as const;
export type MemberClause = (typeof MEMBER_CLAUSES)[number];
const CLAUSES = ["TABLES", "RELATIONSHIPS", ...MEMBER_CLAUSES] as const;
type Clause = (typeof CLAUSES)[number];

export interface SnowflakeDdl {
  /** Entries of each clause present, as token lists of the DDL text. */
  readonly clauses: ReadonlyMap<Clause, Token[][]>;
  readonly comment?: string | undefined;
  /** View-level properties left out because they do not change answers (Cortex Analyst hints, tags, grants). */
  readonly stripped: readonly string[];
  /** View-level text of a form this reader does not know. */
  readonly unknown: readonly string[];
  readonly cursor: TokenCursor;
}

/** View-level properties that change no answer, and how many tokens of arguments follow the keywords. */
const IGNORED_PROPERTIES: readonly {
  readonly words: readonly string[];
  readonly value: "string" | "group" | "number" | "none";
}[] = [
  { words: ["AI_SQL_GENERATION"], value: "string" },
  { words: ["AI_QUESTION_CATEGORIZATION"], value: "string" },
  { words: ["AI_VERIFIED_QUERIES"], value: "group" },
  { words: ["MAX_STALENESS", "="], value: "number" },
  { words: ["WITH", "TAG"], value: "group" },
  { words: ["TAG"], value: "group" },
  { words: ["COPY", "GRANTS"], value: "none" },
];

export function readSnowflakeDdl(ddl: string): SnowflakeDdl {
  const cursor = new TokenCursor(ddl, tokensOf(ddl));
  cursor.take("CREATE");
  cursor.take("OR", "REPLACE");
  cursor.take("OR", "ALTER");
  cursor.take("SEMANTIC", "VIEW");
  cursor.take("IF", "NOT", "EXISTS");
  cursor.takeName();
  const clauses = new Map<Clause, Token[][]>();
  const stripped: string[] = [];
  const unknown: string[] = [];
  let comment: string | undefined;
  while (!cursor.done) {
    const clause = CLAUSES.find((c) => cursor.at(c, "("));
    if (clause !== undefined) {
      cursor.next();
      clauses.set(clause, splitTopLevel(cursor.takeGroup()!));
      continue;
    }
    if (cursor.at("COMMENT", "=") && cursor.peek(2)?.kind === "string") {
      cursor.take("COMMENT", "=");
      comment = cursor.next()!.value;
      continue;
    }
    if (cursor.peek()?.text === ";") {
      cursor.next();
      continue;
    }
    const property = IGNORED_PROPERTIES.find((p) => cursor.at(...p.words));
    if (property !== undefined) {
      const start = cursor.position;
      cursor.take(...property.words);
      if (property.value === "group") cursor.takeGroup();
      else if (property.value !== "none") cursor.next();
      stripped.push(cursor.text(cursor.tokens.slice(start, cursor.position)));
      continue;
    }
    // Unknown: up to the next clause or property this reader knows.
    const known = (c: TokenCursor) =>
      CLAUSES.some((name) => c.at(name, "(")) ||
      c.at("COMMENT", "=") ||
      c.peek()?.text === ";" ||
      IGNORED_PROPERTIES.some((p) => c.at(...p.words));
    const first = cursor.next()!;
    const rest = cursor.takeUntil(known);
    unknown.push(cursor.text([first, ...rest]));
  }
  return { clauses, comment, stripped, unknown, cursor };
}

/** The stored form of a Snowflake name part: unquoted names are stored upper case, quoted ones exactly. */
export function storedName(token: Token): string {
  return token.kind === "quoted_ident" ? token.value : token.value.toUpperCase();
}

/** True when the token is one of these keywords (a quoted name never is). */
export function isAnyKeyword(token: Token | undefined, words: readonly string[]): boolean {
  return words.some((w) => isKeyword(token, w));
}
