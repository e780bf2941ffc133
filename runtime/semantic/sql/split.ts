/**
 * Statement splitting for multi-statement strings: semicolons count only outside quotes, dollar
 * quotes, comments and parentheses. Each statement is returned as its exact source text, trimmed,
 * without the terminating semicolon; statements that are empty (or only comments) are dropped.
 */
import { tokenize } from "./lexer.js";
import { isInsignificant, isPunct, nesting } from "./tokens.js";

export function splitStatements(sql: string): string[] {
  const tokens = tokenize(sql);
  const statements: string[] = [];
  let depth = 0;
  let start = 0;
  let hasContent = false;
  const flush = (end: number): void => {
    if (hasContent) statements.push(sql.slice(start, end).trim());
    hasContent = false;
  };
  for (const token of tokens) {
    depth = Math.max(0, depth + nesting(token));
    if (depth === 0 && isPunct(token, ";")) {
      flush(token.start);
      start = token.end;
      continue;
    }
    if (!isInsignificant(token)) hasContent = true;
  }
  flush(sql.length);
  return statements;
}

/**
 * Cheap pre-check: could this SQL contain anything the semantic layer handles? It must never
 * answer false for a semantic statement (false positives only cost a tokenize).
 */
export function mayHandle(sql: string): boolean {
  return /semantic|get_ddl/i.test(sql); // read_yaml_from_semantic_view contains "semantic"
}
