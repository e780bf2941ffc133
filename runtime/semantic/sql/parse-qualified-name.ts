/**
 * `[database.][schema.]name`, read by the DDL parser (view, table and materialization names) and by
 * the catalog (view references in function arguments), so it sits in the SQL toolkit below both.
 */
import type { Token } from "./lexer.js";
import { isName } from "./tokens.js";
import type { TokenStream } from "./token-stream.js";

/** `[db.][schema.]name` as written (quotes stripped). */
export interface QualifiedName {
  readonly database?: string | undefined;
  readonly schema?: string | undefined;
  readonly name: string;
}

/** `[db.][schema.]name`; returns the parts, the first and the last token. */
export function parseQualifiedName(
  ts: TokenStream,
  what: string,
): { name: QualifiedName; parts: string[]; first: Token; last: Token } {
  const first = ts.expectName(what);
  const parts = [first.value];
  let last = first;
  while (ts.isPunct(".") && isName(ts.peek(1))) {
    ts.next();
    last = ts.next();
    parts.push(last.value);
  }
  if (parts.length > 3) throw ts.error(`${what} has too many parts: '${parts.join(".")}'`, first);
  const [a, b, c] = parts;
  const name: QualifiedName =
    parts.length === 3
      ? { database: a, schema: b, name: c! }
      : parts.length === 2
        ? { schema: a, name: b! }
        : { name: a! };
  return { name, parts, first, last };
}
