/**
 * Backend C's value template (query-compiler/value-template.ts): the SQL of one compile cut at each
 * query value's literal in the where_clause, and its lifted form (duckdb-lifted-values.ts) with each
 * value's place in it. A query of the same value shape compiles by writing each of its values as
 * the compiler does (`duckdbLiteral`, then the where_clause's second level of quoting) between the
 * pieces, and notes its lifted values as the compiler would have.
 *
 * A template is kept only when filling it with the values it was recorded from gives that compile's
 * SQL and lifted form exactly, and every value sits in the lifted shape as a parameter (never as
 * text). A value that a check of the full path refuses, or whose literal lifts otherwise than the
 * recorded one, is handed back to the full compiler, which reports any error itself.
 */
import { describeInvalidFilterValue, type FilterValue } from "../../operation-node/filter-value.js";
import type { ValueTemplate } from "../../query-compiler/value-template.js";
import { placeholderCast } from "../../semantic/call/lift-where-values.js";
import type { LiftedLiteral, LiftedStatement } from "../../semantic/semantic-layer.js";
import { duckdbLiteral, duckdbValueProblem } from "./duckdb-literals.js";
import { FilledDuckDBQuery, liftedLiteralOf, liftedValuesOf } from "./duckdb-lifted-values.js";

/** Where a query value was written in the predicate; `lifted`: its index among the lifted literals, or -1. */
export interface TemplateHole {
  readonly start: number;
  readonly end: number;
  /** The value's index in valueShapeOf order. */
  readonly slot: number;
  readonly lifted: number;
}

/** What one compile recorded. */
export interface TemplateParts {
  readonly sql: string;
  /** The where_clause string literal's span in `sql`, and the predicate it quotes. */
  readonly where: { readonly start: number; readonly end: number; readonly predicate: string };
  readonly holes: readonly TemplateHole[];
  readonly lifted: LiftedStatement | undefined;
}

const quoted = (text: string): string => (text.includes("'") ? text.replaceAll("'", "''") : text);

/** A string duckdbLiteral writes as `'…'` as it is: no quote to double, no NUL written as `chr(0)`. */
const plainText = (value: string): boolean => !value.includes("'") && !value.includes("\0");

class DuckDBValueTemplate implements ValueTemplate {
  readonly #pieces: readonly string[];
  readonly #holes: readonly TemplateHole[];
  /** The lifted form: its shape and the recorded literals (a fill overwrites the holes' own, at `at`). */
  readonly #lifted: { shape: string; literals: readonly LiftedLiteral[]; at: readonly number[] } | undefined;
  /** Per hole, how its value stands in the shape: `$k` (""), or `CAST($k AS DATE)` ("DATE") ... */
  readonly #casts: readonly string[];

  constructor(parts: TemplateParts) {
    const { sql, where, holes, lifted } = parts;
    const pieces: string[] = [];
    let text = sql.slice(0, where.start + 1);
    let cursor = 0;
    for (const hole of holes) {
      pieces.push(text + quoted(where.predicate.slice(cursor, hole.start)));
      text = "";
      cursor = hole.end;
    }
    pieces.push(text + quoted(where.predicate.slice(cursor)) + sql.slice(where.end - 1));
    this.#pieces = pieces;
    this.#holes = holes;
    this.#lifted =
      lifted === undefined
        ? undefined
        : { shape: lifted.shape, literals: lifted.literals, at: holes.map((h) => h.lifted) };
    this.#casts = holes.map((h) => (lifted === undefined ? "" : placeholderCast(lifted.literals[h.lifted]!)));
  }

  fill(values: readonly FilterValue[]): FilledDuckDBQuery | undefined {
    for (const value of values) {
      if ((describeInvalidFilterValue(value) ?? duckdbValueProblem(value)) !== undefined) return undefined;
    }
    const pieces = this.#pieces;
    const holes = this.#holes;
    const liftedForm = this.#lifted;
    // The recorded literals, each hole's replaced by this query's value (one array per fill).
    const literals = liftedForm === undefined ? undefined : liftedForm.literals.slice();
    let sql = pieces[0]!;
    for (let i = 0; i < holes.length; i++) {
      const value = values[holes[i]!.slot];
      if (typeof value === "string" && plainText(value)) {
        // The usual search text: `'x'` in the predicate, `''x''` in the statement (no quote to double).
        if (literals !== undefined) {
          if (this.#casts[i] !== "") return undefined;
          literals[liftedForm!.at[i]!] = { kind: "string", value };
        }
        sql += `''${value}''${pieces[i + 1]!}`;
        continue;
      }
      let text: string;
      try {
        text = duckdbLiteral(value);
      } catch {
        return undefined;
      }
      if (literals !== undefined) {
        const literal = liftedLiteralOf(value, text);
        if (literal == null || placeholderCast(literal) !== this.#casts[i]) return undefined;
        literals[liftedForm!.at[i]!] = literal;
      }
      sql += quoted(text) + pieces[i + 1]!;
    }
    return new FilledDuckDBQuery(
      sql,
      literals === undefined ? undefined : Object.freeze({ shape: liftedForm!.shape, literals }),
    );
  }
}

/**
 * The template of a compile, or undefined when one cannot stand for its value shape: a value that
 * stayed text in the lifted shape, or a template that does not give back the compile it came from.
 */
export function duckdbValueTemplate(parts: TemplateParts, values: readonly FilterValue[]): ValueTemplate | undefined {
  const { lifted, holes } = parts;
  if (holes.some((h) => (lifted === undefined) !== h.lifted < 0)) return undefined;
  if (lifted === undefined && holes.length > 0) return undefined;
  if (parts.sql.slice(parts.where.start, parts.where.end) !== `'${quoted(parts.where.predicate)}'`) return undefined;
  const template = new DuckDBValueTemplate(parts);
  const again = template.fill(values);
  if (again === undefined || again.sql !== parts.sql || !sameLifted(liftedValuesOf(again), lifted)) return undefined;
  return template;
}

function sameLifted(a: LiftedStatement | undefined, b: LiftedStatement | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const text = (s: LiftedStatement) =>
    JSON.stringify(s, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v) as unknown);
  return text(a) === text(b);
}
