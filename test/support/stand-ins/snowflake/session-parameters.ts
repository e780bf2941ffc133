/**
 * The session parameters the Snowflake stand-in models beyond TIMEZONE:
 * - `QUOTED_IDENTIFIERS_IGNORE_CASE` (docs.snowflake.com/en/sql-reference/parameters): when TRUE, letters
 *   in double-quoted identifiers are stored and resolved as upper case, so `"orderedAt"` means
 *   `ORDEREDAT` and an alias `AS "country"` names the column `COUNTRY`. Accounts and users can set it;
 *   the login's SESSION_PARAMETERS and `ALTER SESSION SET` override the account's value.
 * - `QUERY_TAG`: a session's tag, overridden per statement by the query request's `parameters`.
 * `ALTER SESSION SET` takes one or more `<name> = <value>` separated by blanks, commas or new lines.
 */
import { StandInSqlError } from "./semantic-view-sql.js";
import { tokenize, untokenize, type Token } from "./sql-tokens.js";

export interface SessionSettings {
  quotedIdentifiersIgnoreCase: boolean;
  queryTag: string | undefined;
  timeZone: string;
}

/** `ALTER SESSION SET a = 1, b = 'x'` as name (upper case) → value (text, string literals unquoted); else undefined. */
export function alterSessionAssignments(sql: string): Map<string, string> | undefined {
  const head = /^\s*ALTER\s+SESSION\s+SET\s+/i.exec(sql);
  if (head === null) return undefined;
  const tokens = tokenize(sql.slice(head[0].length)).filter(
    (t) => t.kind !== "space" && t.kind !== "comment" && t.text !== ",",
  );
  const assignments = new Map<string, string>();
  for (let i = 0; i < tokens.length; i += 3) {
    const [name, equals, value] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (name?.kind !== "word" || equals?.text !== "=" || value === undefined) {
      throw new StandInSqlError(
        `SQL compilation error:\nsyntax error line 1 at position ${i} unexpected '${name?.text ?? "<EOF>"}'.`,
        "001003",
        "42000",
      );
    }
    assignments.set(name.text.toUpperCase(), valueText(value));
  }
  return assignments;
}

function valueText(token: Token): string {
  return token.kind === "string" ? token.text.slice(1, -1).replaceAll("''", "'") : token.text;
}

/** Applies assignments (from ALTER SESSION or the login's SESSION_PARAMETERS) to a session. */
export function applySessionParameters(settings: SessionSettings, assignments: Iterable<[string, unknown]>): void {
  for (const [name, value] of assignments) {
    switch (name.toUpperCase()) {
      case "QUOTED_IDENTIFIERS_IGNORE_CASE":
        settings.quotedIdentifiersIgnoreCase = /^(true|1)$/i.test(String(value));
        break;
      case "QUERY_TAG":
        settings.queryTag = String(value) === "" ? undefined : String(value);
        break;
      case "TIMEZONE":
        settings.timeZone = String(value);
        break;
    }
  }
}

/** With QUOTED_IDENTIFIERS_IGNORE_CASE = TRUE: every double-quoted identifier's letters in upper case. */
export function foldQuotedIdentifiers(sql: string): string {
  return untokenize(tokenize(sql).map((t) => (t.kind === "quoted" ? { ...t, text: t.text.toUpperCase() } : t)));
}
