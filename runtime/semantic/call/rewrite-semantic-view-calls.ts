/**
 * Rewrites every `semantic_view('name', ...)` call in a statement into a subquery of its expanded,
 * typed SQL. The rest of the statement is left byte for byte as written, so outer WHERE, ORDER BY,
 * LIMIT, joins, CTEs and parameters work as plain SQL.
 */
import type { SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import type { SqlSession } from "../semantic-layer.js";
import { CLAUSE_WORDS } from "../sql/keywords.js";
import { tokenize, type Token } from "../sql/lexer.js";
import {
  closingParen,
  isInsignificant,
  isKeyword,
  isName,
  isPunct,
  nextSignificantIndex,
  previousSignificant,
} from "../sql/tokens.js";
import { didYouMean } from "../../text/suggest.js";
import { parseSemanticViewArguments } from "./call-arguments.js";
import { typedSemanticQuery } from "./typed-query.js";

export interface SemanticViewCatalog {
  load(name: string): Promise<SemanticViewDefinition | undefined>;
  names(): Promise<string[]>;
}

/** Quick pre-check: could this statement contain a call? */
export function mentionsSemanticView(statement: string): boolean {
  return /semantic_view\s*\(/i.test(statement);
}

export async function rewriteSemanticViewCalls(
  session: SqlSession,
  statement: string,
  catalog: SemanticViewCatalog,
): Promise<string | null> {
  if (!mentionsSemanticView(statement)) return null;
  const tokens = tokenize(statement);
  const calls = findCalls(tokens);
  if (calls.length === 0) return null;
  let out = "";
  let cursor = 0;
  for (const call of calls) {
    const args = tokens.slice(call.open + 1, call.close).filter((t) => !isInsignificant(t));
    const { view, request } = parseSemanticViewArguments(args);
    const def = await catalog.load(view);
    if (def === undefined) throw await notFound(view, catalog);
    const typed = await typedSemanticQuery(session, def, request);
    out += statement.slice(cursor, tokens[call.name]!.start);
    out += `(${typed.sql})`;
    if (call.addAlias) out += " AS semantic_view";
    cursor = tokens[call.close]!.end;
  }
  out += statement.slice(cursor);
  return out;
}

async function notFound(view: string, catalog: SemanticViewCatalog): Promise<SemanticViewError> {
  const names = await catalog.names();
  return new SemanticViewError(
    "not_found",
    `Semantic view '${view}' not found.${didYouMean(view, names)} Available views: [${names.join(", ")}]. Run SHOW SEMANTIC VIEWS to see all registered views.`,
  );
}

interface CallSite {
  /** Token indexes: the `semantic_view` name, its `(` and matching `)`. */
  readonly name: number;
  readonly open: number;
  readonly close: number;
  /** No alias written and the call is not wrapped in parentheses (where DuckDB allows none). */
  readonly addAlias: boolean;
}

function findCalls(tokens: readonly Token[]): CallSite[] {
  const calls: CallSite[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isKeyword(tokens[i], "semantic_view") || isPunct(previousSignificant(tokens, i), ".")) continue;
    const open = nextSignificantIndex(tokens, i);
    if (open === undefined || !isPunct(tokens[open], "(")) continue;
    const close = closingParen(tokens, open);
    if (close === undefined) {
      throw new SemanticViewError("parse", "semantic_view: unbalanced parentheses in the call");
    }
    const after = nextSignificantIndex(tokens, close);
    const next = after === undefined ? undefined : tokens[after];
    const hasAlias = isName(next) && (next.kind === "quoted_ident" || !CLAUSE_WORDS.has(next.value.toLowerCase()));
    calls.push({ name: i, open, close, addAlias: !hasAlias && !isPunct(next, ")") });
    i = close;
  }
  return calls;
}
