/**
 * Splits Snowflake SQL text into statements at top-level semicolons. Semicolons inside string
 * literals ('...' with '' or backslash escapes), quoted identifiers ("..."), dollar-quoted bodies
 * ($$...$$) and comments (--, //, /* *\/) do not split. Empty statements are dropped.
 * Snowflake runs one statement per request unless MULTI_STATEMENT_COUNT is set, so the driver runs
 * several statements one request each.
 */
export function splitSnowflakeStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (text !== "" && !isOnlyComments(text)) statements.push(text);
  };
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "'") {
      i++;
      while (i < n && sql[i] !== "'") i += sql[i] === "\\" ? 2 : 1;
      i++;
      if (sql[i] === "'") continue; // '' escape: the literal goes on
    } else if (c === '"') {
      i = indexAfter(sql, '"', i + 1);
    } else if (c === "$" && next === "$") {
      i = indexAfter(sql, "$$", i + 2);
    } else if ((c === "-" && next === "-") || (c === "/" && next === "/")) {
      i = indexAfter(sql, "\n", i + 2);
    } else if (c === "/" && next === "*") {
      i = indexAfter(sql, "*/", i + 2);
    } else if (c === ";") {
      push(i);
      start = ++i;
    } else {
      i++;
    }
  }
  push(n);
  return statements;
}

function indexAfter(sql: string, token: string, from: number): number {
  const at = sql.indexOf(token, from);
  return at < 0 ? sql.length : at + token.length;
}

function isOnlyComments(text: string): boolean {
  return text.replace(/--[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").trim() === "";
}
