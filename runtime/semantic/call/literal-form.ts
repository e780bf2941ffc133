/**
 * A where_clause shape's SQL with its lifted values written back in as the literals they were lifted
 * from — for values the shape has run with before on this connection.
 *
 * Why: DuckDB plans a prepared statement with parameters again at every execution when it scans a
 * table (`PreparedStatement::CanCachePlan` keeps no plan with a table scan in it: a bound value may
 * let it push a filter down), so a bound shape costs a full bind, optimize and physical plan per run:
 * the same as a statement planned each time (a filter on a two-hop dimension over 400,000 rows: ~1 ms
 * of ~5 ms). A statement with the values as literals keeps its plan in the connection's statement
 * cache. A value seen once is bound into the shape (one prepare per shape, a new value no new
 * statement: the distinct-values path); a value seen again runs as its literal form, which is
 * prepared once and then reused without planning.
 *
 * The literal form means exactly what the statement as written meant: each value is written as the
 * literal it was lifted from (lift-where-values.ts; a date or timestamp stands in the shape as
 * `CAST($k AS <type>)`, so its string is written there).
 */
import { tokenize } from "../sql/lexer.js";
import { SIGHTING_BYTES } from "../rewrite-cache.js";
import type { LiftedLiteral } from "../semantic-layer.js";

/** Value lists remembered per shape, and the longest one remembered (a longer one is always bound). */
const SIGHTINGS = 32;
const MAX_KEY_LENGTH = Math.floor((SIGHTING_BYTES / SIGHTINGS - 48) / 2);

const PARAMETER = /^\$(\d+)$/;

/** `literal` as SQL text, or undefined for a value that is not written back (a string with NUL). */
export function literalText(literal: LiftedLiteral): string | undefined {
  switch (literal.kind) {
    case "string":
      return literal.value.includes("\0") ? undefined : quote(literal.value);
    case "boolean":
      return literal.value ? "TRUE" : "FALSE";
    case "integer":
      return literal.value.toString();
    case "decimal": {
      // Its own digit count (leading zeros included): DuckDB types `0012.50` as DECIMAL(6,2).
      const negative = literal.unscaled < 0n;
      const digits = (negative ? -literal.unscaled : literal.unscaled).toString().padStart(literal.digits, "0");
      const point = digits.length - literal.scale;
      return `${negative ? "-" : ""}${digits.slice(0, point)}.${digits.slice(point)}`;
    }
    case "double":
      return literal.text;
    case "date":
    case "timestamp":
    case "timestamptz":
      return quote(literal.text); // inside the shape's CAST($k AS <type>)
  }
}

const quote = (text: string): string => `'${text.includes("'") ? text.replaceAll("'", "''") : text}'`;

/** The shape's SQL cut at each `$k`; `slots[i]`: the value (k - 1) between pieces i and i + 1. */
interface Template {
  readonly pieces: readonly string[];
  readonly slots: readonly number[];
}

export class LiteralForm {
  readonly #sql: string;
  readonly #count: number;
  /** Cut on first use (null: the SQL does not lex, or names a parameter beyond the values). */
  #template: Template | null | undefined;
  /** Value lists this shape ran with (their literal texts, joined). */
  readonly #seen = new Set<string>();
  /** The same keys in a ring, to forget the oldest without an iterator per new value. */
  readonly #order: string[] = [];
  #next = 0;

  /** The literal form of shape SQL `sql` with `count` parameters. */
  constructor(sql: string, count: number) {
    this.#sql = sql;
    this.#count = count;
  }

  /** The SQL with `literals` written in, or undefined when one is not written back. */
  sql(literals: readonly LiftedLiteral[]): string | undefined {
    const texts = textsOf(literals);
    return texts === undefined ? undefined : this.#write(texts);
  }

  /**
   * The SQL with `literals` written in when this shape ran with the same values before; otherwise
   * undefined, and the values are remembered (the oldest of SIGHTINGS forgotten).
   */
  sqlIfSeen(literals: readonly LiftedLiteral[]): string | undefined {
    const texts = textsOf(literals);
    if (texts === undefined) return undefined;
    let key = texts[0] ?? "";
    for (let i = 1; i < texts.length; i++) key += `,${texts[i]!}`; // cheaper than join() for a few texts
    if (key.length > MAX_KEY_LENGTH) return undefined;
    const seen = this.#seen;
    if (seen.has(key)) return this.#write(texts);
    const order = this.#order;
    if (order.length < SIGHTINGS) order.push(key);
    else {
      seen.delete(order[this.#next]!);
      order[this.#next] = key;
      this.#next = (this.#next + 1) % SIGHTINGS;
    }
    seen.add(key);
    return undefined;
  }

  #write(texts: readonly string[]): string | undefined {
    if (this.#template === undefined) this.#template = cut(this.#sql, this.#count);
    if (this.#template === null) return undefined;
    const { pieces, slots } = this.#template;
    let sql = pieces[0]!;
    for (let i = 0; i < slots.length; i++) sql += texts[slots[i]!]! + pieces[i + 1]!;
    return sql;
  }
}

function cut(sql: string, count: number): Template | null {
  let tokens;
  try {
    tokens = tokenize(sql);
  } catch {
    return null;
  }
  const pieces: string[] = [];
  const slots: number[] = [];
  let cursor = 0;
  for (const t of tokens) {
    const k = t.kind === "op" ? PARAMETER.exec(t.text) : null;
    if (k === null) continue;
    const slot = Number(k[1]) - 1;
    if (slot < 0 || slot >= count) return null;
    pieces.push(sql.slice(cursor, t.start));
    slots.push(slot);
    cursor = t.end;
  }
  pieces.push(sql.slice(cursor));
  return { pieces, slots };
}

function textsOf(literals: readonly LiftedLiteral[]): string[] | undefined {
  const texts: string[] = new Array(literals.length);
  for (let i = 0; i < literals.length; i++) {
    const text = literalText(literals[i]!);
    if (text === undefined) return undefined;
    texts[i] = text;
  }
  return texts;
}
