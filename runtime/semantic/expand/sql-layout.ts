/**
 * The layout of the expanded SQL, as the extension formats it (and `explain_semantic_view` prints
 * it line by line): one select item per line, indented four spaces; each join's ON on its own
 * line; `GROUP BY` ordinals one per line; CTE bodies indented inside their parentheses.
 */

const INDENT = "    ";

/** `SELECT[ DISTINCT]` and its items, one per line. */
export function selectLines(items: readonly string[], distinct = false): string[] {
  return [
    `SELECT${distinct ? " DISTINCT" : ""}`,
    ...items.map((item, i) => `${INDENT}${item}${i < items.length - 1 ? "," : ""}`),
  ];
}

/** `GROUP BY` over the first `count` select items, by ordinal (none when 0). */
export function groupByLines(count: number): string[] {
  if (count === 0) return [];
  return ["GROUP BY", ...Array.from({ length: count }, (_, i) => `${INDENT}${i + 1}${i < count - 1 ? "," : ""}`)];
}

/** Every line of `sql` indented one level. */
export function indented(sql: string): string {
  return sql
    .split("\n")
    .map((line) => (line === "" ? line : INDENT + line))
    .join("\n");
}

/** `WITH a AS (\n  body\n),\nb AS (...)\n` followed by `select`. */
export function withCtes(ctes: readonly { name: string; body: string }[], select: string): string {
  return `WITH ${ctes.map((c) => `${c.name} AS (\n${indented(c.body)}\n)`).join(",\n")}\n${select}`;
}

/** An `ON` condition on its own line under its join. */
export const onLine = (condition: string): string => `${INDENT}ON ${condition}`;
