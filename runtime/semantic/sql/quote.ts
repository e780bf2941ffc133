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

/** Splits a written table reference like `main."My Table"` into its unquoted parts. */
export function splitTableReference(ref: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^."\s]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < ref.length && (m = re.exec(ref)) !== null)
    parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  return parts.length > 0 ? parts : [ref];
}
