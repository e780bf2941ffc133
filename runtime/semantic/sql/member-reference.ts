/**
 * References to a member written inside a definition — `NON ADDITIVE BY (o."order date" DESC)`, a
 * window's `ORDER BY o."order date"` or inner metric `"Total Revenue"` — kept as written (the
 * extension stores and shows them so) and resolved here: bare or `alias.`-qualified, quoted or not,
 * case-insensitively.
 */
import { significant } from "./lexer.js";
import { identEquals } from "./quote.js";
import { tokensOf } from "./references.js";
import { isName, isPunct } from "./tokens.js";

export interface MemberReference {
  /** Table alias of an `alias.name` reference. */
  readonly qualifier?: string | undefined;
  /** The unquoted name. */
  readonly name: string;
}

/** `name`, `"Quoted Name"`, `alias.name`, `alias."name"`; any other text is taken whole as a name. */
export function parseMemberReference(text: string): MemberReference {
  let tokens;
  try {
    tokens = significant(tokensOf(text.trim()));
  } catch {
    return { name: text.trim() };
  }
  const [a, dot, b] = tokens;
  if (tokens.length === 1 && isName(a)) return { name: a.value };
  if (tokens.length === 3 && isName(a) && isPunct(dot, ".") && isName(b)) return { qualifier: a.value, name: b.value };
  return { name: text.trim() };
}

/** True when `text` refers to `member` (same name; same table when qualified). */
export function refersTo(
  text: string,
  member: { readonly name: string; readonly table?: string | undefined },
): boolean {
  const ref = parseMemberReference(text);
  return (
    identEquals(ref.name, member.name) && (ref.qualifier === undefined || identEquals(ref.qualifier, member.table))
  );
}

/** The member `text` refers to, first in declaration order. */
export function findReferenced<T extends { readonly name: string; readonly table?: string | undefined }>(
  members: readonly T[],
  text: string,
): T | undefined {
  return members.find((m) => refersTo(text, m));
}
