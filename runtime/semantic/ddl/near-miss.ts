/**
 * Near-miss DDL: a statement whose first words are within 3 edits of a semantic DDL prefix
 * (`CREAT SEMANTIC VIEW`, `DROP SEMANTC VIEW`) gets "Did you mean ...?" instead of DuckDB's bare
 * syntax error, as the extension does.
 */
import { SemanticViewError } from "../semantic-error.js";
import type { Token } from "../sql/lexer.js";
import { levenshtein } from "../../text/suggest.js";

const PREFIXES = [
  "CREATE SEMANTIC VIEW",
  "CREATE OR REPLACE SEMANTIC VIEW",
  "DROP SEMANTIC VIEW",
  "ALTER SEMANTIC VIEW",
  "DESCRIBE SEMANTIC VIEW",
];

/** Throws the suggestion when `tokens` start with a misspelled semantic DDL prefix. */
export function checkNearMiss(tokens: readonly Token[]): void {
  for (const prefix of PREFIXES) {
    const count = prefix.split(" ").length;
    const words = tokens.slice(0, count);
    if (words.length < count || words.some((t) => t.kind !== "ident")) continue;
    const written = words.map((t) => t.value.toUpperCase()).join(" ");
    const distance = levenshtein(written, prefix);
    if (distance > 0 && distance <= 3) throw new SemanticViewError("parse", `Did you mean '${prefix}'?`);
  }
}

/** Cheap test for statements that might be a misspelled semantic DDL prefix. */
export const NEAR_MISS_CANDIDATE = /^\s*(?:cr\w*|dr\w*|al\w*|de\w*)\s+(?:or\s+replace\s+)?s\w{5,10}\s+v\w{2,5}\b/im;
