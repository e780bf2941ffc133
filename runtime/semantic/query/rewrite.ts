/**
 * Rewrites every `semantic_view('name', ...)` call in a statement into a subquery of its expanded,
 * typed SQL. The rest of the statement is left byte for byte as written, so outer WHERE, ORDER BY,
 * LIMIT, joins, CTEs and parameters work as plain SQL.
 */
import type { SemanticViewDefinition } from "../model.js";
import { SemanticViewError } from "../semantic-error.js";
import type { SqlSession } from "../semantic-layer.js";
import { tokenize, type Token } from "../sql/lexer.js";
import { closestName } from "../sql/suggest.js";
import { parseSemanticViewArguments } from "./call-arguments.js";
import { typedSemanticQuery } from "./typed-query.js";

export interface SemanticViewCatalog {
  load(name: string): Promise<SemanticViewDefinition | undefined>;
  names(): Promise<string[]>;
}

/** Words that may follow a table expression and are therefore not an alias. */
const NOT_ALIAS = new Set([
  "where",
  "group",
  "having",
  "order",
  "limit",
  "offset",
  "fetch",
  "window",
  "qualify",
  "union",
  "except",
  "intersect",
  "join",
  "left",
  "right",
  "inner",
  "outer",
  "full",
  "cross",
  "natural",
  "positional",
  "asof",
  "anti",
  "semi",
  "on",
  "using",
  "returning",
  "select",
  "from",
  "tablesample",
  "using",
  "pivot",
  "unpivot",
]);

const insignificant = (t: Token): boolean => t.kind === "whitespace" || t.kind === "comment";

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
    const args = tokens.slice(call.open + 1, call.close).filter((t) => !insignificant(t));
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
  const suggestion = closestName(view, names);
  const hint = suggestion === undefined ? "" : ` Did you mean '${suggestion}'?`;
  return new SemanticViewError(
    "not_found",
    `Semantic view '${view}' not found.${hint} Available views: [${names.join(", ")}]. Run SHOW SEMANTIC VIEWS to see all registered views.`,
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
    const t = tokens[i]!;
    if (t.kind !== "ident" || t.value.toLowerCase() !== "semantic_view") continue;
    const prev = previous(tokens, i);
    if (prev !== undefined && prev.kind === "punct" && prev.text === ".") continue;
    const open = nextIndex(tokens, i);
    if (open === undefined || tokens[open]!.kind !== "punct" || tokens[open]!.text !== "(") continue;
    const close = matching(tokens, open);
    if (close === undefined) {
      throw new SemanticViewError("parse", "semantic_view: unbalanced parentheses in the call");
    }
    const after = nextIndex(tokens, close);
    const next = after === undefined ? undefined : tokens[after];
    const hasAlias =
      next !== undefined &&
      (next.kind === "quoted_ident" || (next.kind === "ident" && !NOT_ALIAS.has(next.value.toLowerCase())));
    const closesParen = next !== undefined && next.kind === "punct" && next.text === ")";
    calls.push({ name: i, open, close, addAlias: !hasAlias && !closesParen });
    i = close;
  }
  return calls;
}

function previous(tokens: readonly Token[], i: number): Token | undefined {
  for (let j = i - 1; j >= 0; j--) if (!insignificant(tokens[j]!)) return tokens[j];
  return undefined;
}

function nextIndex(tokens: readonly Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (!insignificant(tokens[j]!)) return j;
  return undefined;
}

function matching(tokens: readonly Token[], open: number): number | undefined {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.kind !== "punct") continue;
    if (t.text === "(") depth++;
    else if (t.text === ")" && --depth === 0) return j;
  }
  return undefined;
}
