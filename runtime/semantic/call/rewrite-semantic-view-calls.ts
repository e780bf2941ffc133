/**
 * Rewrites every `semantic_view('name', ...)` call in a statement into a subquery of its expanded,
 * typed SQL. The rest of the statement is left byte for byte as written, so outer WHERE, ORDER BY,
 * LIMIT, joins, CTEs and parameters work as plain SQL. The query compiler's own form (a projection
 * of one call, ordered and limited) becomes one SELECT over the expansion (flat-projection.ts).
 */
import type { SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import type { SqlSession } from "../semantic-layer.js";
import { tokenize } from "../sql/lexer.js";
import { isInsignificant } from "../sql/tokens.js";
import { didYouMean } from "../../text/suggest.js";
import { parseSemanticViewArguments } from "./call-arguments.js";
import { typedSemanticQuery } from "./typed-query.js";
import { findCalls } from "./find-calls.js";
import { flatProjection } from "./flat-projection.js";

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
    const flat = calls.length === 1 ? flatProjection(statement, tokens, call, typed) : undefined;
    if (flat !== undefined) return flat;
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
