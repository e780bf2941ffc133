/**
 * `[database.][schema.]name` in DDL statements. Its own module because CREATE and its
 * MATERIALIZATIONS clause both read names, and the clause's parser is imported by CREATE's.
 */
import type { Token } from "../sql/lexer.js";
import { isName } from "../sql/tokens.js";
import type { QualifiedName } from "./statements.js";
import type { TokenStream } from "./token-stream.js";

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
