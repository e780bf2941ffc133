/** Literal and identifier quoting for the few metadata statements introspection writes. */

/** A SQL string literal: `'` doubled. */
export function stringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A double-quoted identifier (DuckDB, Snowflake): `"` doubled. */
export function quotedIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A backtick-quoted identifier (Databricks): `` ` `` doubled. */
export function backtickIdentifier(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}
