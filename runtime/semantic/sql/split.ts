/**
 * Statement splitting for multi-statement strings: semicolons count only outside quotes, dollar
 * quotes, comments and parentheses. Each statement is returned as its exact source text, trimmed,
 * without the terminating semicolon; statements that are empty (or only comments) are dropped.
 */
import { tokenize } from "./lexer.js";

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
    if (token.kind === "punct") {
      if (token.text === "(" || token.text === "[" || token.text === "{") depth++;
      else if ((token.text === ")" || token.text === "]" || token.text === "}") && depth > 0) depth--;
      else if (token.text === ";" && depth === 0) {
        flush(token.start);
        start = token.end;
        continue;
      }
    }
    if (token.kind !== "whitespace" && token.kind !== "comment") hasContent = true;
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
