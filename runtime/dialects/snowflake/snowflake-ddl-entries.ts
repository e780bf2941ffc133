/**
 * One entry of a GET_DDL clause, read by the CREATE SEMANTIC VIEW grammar:
 * - logical table: `[alias AS] name [PRIMARY KEY (...)] [UNIQUE (...)]... [CONSTRAINT [n] DISTINCT RANGE
 *   BETWEEN a AND b EXCLUSIVE] [WITH SYNONYMS [=] (...)] [COMMENT = '...'] [[WITH] TAG (...)]`;
 * - relationship: `[name AS] alias (cols) REFERENCES ref [( [ASOF] cols | BETWEEN a AND b EXCLUSIVE )]`;
 * - fact, dimension or metric: `[PRIVATE|PUBLIC] [alias.]name [USING (rels)] [NON ADDITIVE BY (dim
 *   [ASC|DESC] [NULLS FIRST|LAST], ...)] [LABELS = (FILTER)] AS expr [WITH SYNONYMS [=] (...)]
 *   [[WITH] TAG (...)] [COMMENT = '...'] [WITH CORTEX SEARCH SERVICE s [USING col]]`.
 * Forms that change no answer are recorded in `stripped`; forms this reader does not know in `unknown`.
 */
import { isKeyword, isPunct } from "../../semantic/sql/tokens.js";
import { splitTopLevel, TokenCursor, type Token } from "../fixture/token-cursor.js";
import { storedName } from "./snowflake-ddl-clauses.js";

interface Leftovers {
  readonly stripped: string[];
  readonly unknown: string[];
}

export interface TableEntry extends Leftovers {
  /** Stored names. */
  readonly alias: string;
  readonly nameParts: readonly Token[];
  readonly primaryKey?: readonly string[];
  readonly unique: readonly (readonly string[])[];
}

export interface RelationshipEntry extends Leftovers {
  readonly name?: string;
  readonly from: string;
  readonly columns: readonly string[];
  readonly to: string;
  readonly toColumns?: readonly string[];
}

export interface NonAdditiveBy {
  readonly dimension: readonly string[];
  readonly descending: boolean;
  /** As written; undefined: Snowflake's default for the direction (ASC: NULLS LAST, DESC: NULLS FIRST). */
  readonly nullsFirst?: boolean;
}

export interface MemberEntry extends Leftovers {
  readonly private: boolean;
  /** Stored names: `[table, member]`, or `[member]` for a derived metric. */
  readonly name: readonly string[];
  readonly using?: readonly string[];
  readonly nonAdditiveBy?: readonly NonAdditiveBy[];
  readonly expression: string;
  readonly comment?: string;
}

const names = (tokens: readonly Token[]) =>
  splitTopLevel(tokens).map((part) =>
    part
      .filter((t) => !isPunct(t, "."))
      .map(storedName)
      .join("."),
  );

/** Optional trailing properties shared by tables and members; false when none is next. */
function trailing(cursor: TokenCursor, out: Leftovers): { comment?: string } | false {
  const start = cursor.position;
  const note = () => out.stripped.push(cursor.text(cursor.tokens.slice(start, cursor.position)));
  if (cursor.take("WITH", "SYNONYMS") || cursor.take("WITH", "TAG") || cursor.take("TAG")) {
    cursor.take("=");
    cursor.takeGroup();
    note();
    return {};
  }
  if (cursor.take("WITH", "CORTEX", "SEARCH", "SERVICE")) {
    cursor.takeName();
    if (cursor.take("USING")) cursor.takeName();
    note();
    return {};
  }
  if (cursor.at("COMMENT", "=") && cursor.peek(2)?.kind === "string") {
    cursor.take("COMMENT", "=");
    return { comment: cursor.next()!.value };
  }
  return false;
}

/** `name AS` before an entry (a table alias, a relationship name), consumed; undefined without it. */
function takeNamePrefix(cursor: TokenCursor): string | undefined {
  if (!isKeyword(cursor.peek(1), "AS")) return undefined;
  const name = storedName(cursor.next()!);
  cursor.next();
  return name;
}

function unknownUntil(cursor: TokenCursor, out: Leftovers, stop: (c: TokenCursor) => boolean): void {
  const first = cursor.next()!;
  out.unknown.push(cursor.text([first, ...cursor.takeUntil(stop)]));
}

export function readTableEntry(source: string, tokens: readonly Token[]): TableEntry {
  const cursor = new TokenCursor(source, tokens);
  const out: Leftovers = { stripped: [], unknown: [] };
  const alias = takeNamePrefix(cursor);
  const nameParts = cursor.takeName();
  if (nameParts.length === 0) throw new Error(`cannot read the table entry "${cursor.text(tokens)}"`);
  let primaryKey: string[] | undefined;
  const unique: string[][] = [];
  while (!cursor.done) {
    if (cursor.take("PRIMARY", "KEY")) primaryKey = names(cursor.takeGroup() ?? []);
    else if (cursor.take("UNIQUE")) unique.push(names(cursor.takeGroup() ?? []));
    else if (cursor.at("CONSTRAINT")) {
      const start = cursor.position;
      cursor.takeUntil((c) => c.at("EXCLUSIVE"));
      cursor.take("EXCLUSIVE");
      out.stripped.push(cursor.text(cursor.tokens.slice(start, cursor.position)));
    } else if (trailing(cursor, out) === false) unknownUntil(cursor, out, (c) => c.at("WITH") || c.at("COMMENT"));
  }
  return { alias: alias ?? storedName(nameParts.at(-1)!), nameParts, primaryKey, unique, ...out };
}

export function readRelationshipEntry(source: string, tokens: readonly Token[]): RelationshipEntry {
  const cursor = new TokenCursor(source, tokens);
  const out: Leftovers = { stripped: [], unknown: [] };
  const name = takeNamePrefix(cursor);
  const from = cursor.takeName();
  const columns = names(cursor.takeGroup() ?? []);
  if (from.length !== 1 || !cursor.take("REFERENCES")) {
    throw new Error(`cannot read the relationship entry "${cursor.text(tokens)}"`);
  }
  const to = cursor.takeName();
  const targetAt = cursor.position;
  const target = cursor.takeGroup();
  let toColumns: string[] | undefined;
  if (target !== undefined) {
    if (target.some((t) => isKeyword(t, "ASOF") || isKeyword(t, "BETWEEN"))) {
      out.unknown.push(cursor.text(cursor.tokens.slice(targetAt, cursor.position)));
    } else toColumns = names(target);
  }
  while (!cursor.done) if (trailing(cursor, out) === false) unknownUntil(cursor, out, (c) => c.at("WITH"));
  return { name, from: storedName(from[0]!), columns, to: to.map(storedName).join("."), toColumns, ...out };
}

function readNonAdditive(tokens: readonly Token[]): NonAdditiveBy[] {
  return splitTopLevel(tokens).map((part) => {
    const cursor = new TokenCursor("", part);
    const dimension = cursor.takeName().map(storedName);
    let descending = false;
    if (cursor.take("DESC")) descending = true;
    else cursor.take("ASC");
    let nullsFirst: boolean | undefined;
    if (cursor.take("NULLS", "FIRST")) nullsFirst = true;
    else if (cursor.take("NULLS", "LAST")) nullsFirst = false;
    if (dimension.length === 0 || !cursor.done) throw new Error("cannot read a NON ADDITIVE BY item");
    return { dimension, descending, ...(nullsFirst === undefined ? {} : { nullsFirst }) };
  });
}

export function readMemberEntry(source: string, tokens: readonly Token[]): MemberEntry {
  const cursor = new TokenCursor(source, tokens);
  const out: Leftovers = { stripped: [], unknown: [] };
  const isPrivate = cursor.take("PRIVATE");
  if (!isPrivate) cursor.take("PUBLIC");
  const name = cursor.takeName().map(storedName);
  let using: string[] | undefined;
  let nonAdditiveBy: NonAdditiveBy[] | undefined;
  while (!cursor.done && !cursor.at("AS")) {
    const start = cursor.position;
    if (cursor.take("USING")) using = names(cursor.takeGroup() ?? []);
    else if (cursor.take("NON", "ADDITIVE", "BY")) nonAdditiveBy = readNonAdditive(cursor.takeGroup() ?? []);
    else if (cursor.take("LABELS", "=")) {
      cursor.takeGroup();
      out.stripped.push(cursor.text(cursor.tokens.slice(start, cursor.position)));
    } else unknownUntil(cursor, out, (c) => c.at("AS"));
  }
  if (name.length === 0 || !cursor.take("AS")) throw new Error(`cannot read the member entry "${cursor.text(tokens)}"`);
  const ends = (c: TokenCursor) =>
    c.at("WITH", "SYNONYMS") ||
    c.at("WITH", "TAG") ||
    c.at("TAG", "(") ||
    c.at("WITH", "CORTEX") ||
    c.at("COMMENT", "=");
  const expression = cursor.text(cursor.takeUntil(ends));
  let comment: string | undefined;
  while (!cursor.done) {
    const found = trailing(cursor, out);
    if (found === false) unknownUntil(cursor, out, ends);
    else if (found.comment !== undefined) comment = found.comment;
  }
  return { private: isPrivate, name, using, nonAdditiveBy, expression, comment, ...out };
}
