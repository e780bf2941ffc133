/** Identifier and literal helpers. Names compare case-insensitively, as DuckDB and the extension do. */

/** Case-insensitive name equality (quoted identifiers are not case-sensitive in DuckDB); a missing name equals none. */
export function identEquals(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

/** Always double-quotes, doubling embedded quotes. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A single-quoted SQL string literal, doubling embedded quotes. */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A SQL string expression holding `text` exactly, for SQL that runs (listing rows, `get_ddl` results):
 * a quoted literal, or, when the text holds NUL (U+0000, which ends DuckDB's statement text and which
 * definitions stored by older versions may contain), the pieces joined by `chr(0)`. DDL text keeps
 * {@link quoteLiteral}: it is shown, never run with a NUL in it.
 */
export function textExpression(text: string): string {
  if (!text.includes("\u0000")) return quoteLiteral(text);
  return `(${text.split("\u0000").map(quoteLiteral).join(" || chr(0) || ")})`;
}

/** Splits a written table reference like `main."My Table"` into its unquoted parts. */
export function splitTableReference(ref: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^."\s]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < ref.length && (m = re.exec(ref)) !== null)
    parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  return parts.length > 0 ? parts : [ref];
}
