/**
 * The query compiler's own statement — `SELECT "a" AS "x", ... FROM semantic_view(...)` followed by
 * nothing but ORDER BY, LIMIT and OFFSET on the output names — rewritten, when the typed query casts
 * a column (typed-query.ts), as one SELECT over the expansion with those casts in it, instead of a
 * SELECT over the typed query's SELECT over the expansion. DuckDB binds and plans a statement with bound values at every
 * run (call/literal-form.ts), and that extra subquery level cost ~3 % of a 10,000-row aggregate with
 * a new filter value per query (round 44). Same rows, names, types and order: each output column is
 * the typed column it projected, and ORDER BY binds an output name before a column of the FROM
 * clause. Any other statement keeps the plain rewrite (rewrite-semantic-view-calls.ts).
 */
import type { Token } from "../sql/lexer.js";
import { identEquals, quoteIdent } from "../sql/quote.js";
import { isInsignificant, isKeyword, isName, isPunct } from "../sql/tokens.js";
import type { CallSite } from "./find-calls.js";
import type { TypedSemanticQuery } from "./typed-query.js";

/** What may follow the call: the clauses the compiler writes after it, on output names and numbers. */
const TAIL_WORDS = new Set(["ORDER", "BY", "ASC", "DESC", "NULLS", "FIRST", "LAST", "LIMIT", "OFFSET"]);

/** `statement` as one SELECT over the expansion, or undefined when it is not the compiler's form. */
export function flatProjection(
  statement: string,
  tokens: readonly Token[],
  call: CallSite,
  typed: TypedSemanticQuery,
): string | undefined {
  // Without casts the typed query is the expansion itself: no level to save.
  if (!call.addAlias || typed.casts.every((cast) => cast === undefined)) return undefined;
  const head = significant(tokens, 0, call.name);
  if (!isKeyword(head[0], "SELECT") || !isKeyword(head.at(-1), "FROM")) return undefined;
  const items: string[] = [];
  const names: string[] = [];
  // `<column> AS <name>`, comma-separated, between SELECT and FROM.
  for (let i = 1; i < head.length - 1; i += 4) {
    const [column, as, name, comma] = [head[i], head[i + 1], head[i + 2], head[i + 3]];
    if (!isName(column) || !isKeyword(as, "AS") || !isName(name)) return undefined;
    if (i + 3 < head.length - 1 && !isPunct(comma, ",")) return undefined;
    const matches = typed.columns.flatMap((c, k) => (identEquals(c.name, column.value) ? [k] : []));
    if (matches.length !== 1) return undefined;
    const k = matches[0]!;
    const cast = typed.casts[k];
    items.push(`${quoteIdent(typed.columns[k]!.name)}${cast === undefined ? "" : `::${cast}`} AS ${name.text}`);
    names.push(name.value);
  }
  if (items.length === 0) return undefined;
  const after = significant(tokens, call.close + 1, tokens.length);
  // Nothing but the clauses after the FROM list (a comma there would join another table in).
  if (after.length > 0 && !["ORDER", "LIMIT", "OFFSET"].some((word) => isKeyword(after[0], word))) return undefined;
  for (const t of after) {
    const word = t.kind === "ident" && TAIL_WORDS.has(t.value.toUpperCase());
    const outputName = isName(t) && !word && names.some((n) => identEquals(n, t.value));
    if (!word && !outputName && t.kind !== "number" && !isPunct(t, ",")) return undefined;
  }
  const tail = statement.slice(tokens[call.close]!.end);
  // The expansion on the lines it has in the typed query: DuckDB's errors name the same LINE.
  return `SELECT ${items.join(", ")}\nFROM (\n${typed.expandedSql}\n) AS __sv_inner${tail}`;
}

function significant(tokens: readonly Token[], from: number, to: number): Token[] {
  return tokens.slice(from, to).filter((t) => !isInsignificant(t));
}
