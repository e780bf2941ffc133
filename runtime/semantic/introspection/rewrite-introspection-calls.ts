/**
 * Rewrites introspection function calls inside arbitrary SQL: each table function call (and
 * `explain_semantic_view(...)`) becomes a subquery over
 * literal rows (so `SELECT name FROM list_semantic_views() WHERE ...` works as plain SQL), and
 * `get_ddl('SEMANTIC_VIEW', 'v')` becomes a string literal. Values are escaped literals.
 */
import { listDefinitions, parseViewReference } from "../catalog.js";
import { parseSemanticStatement } from "../ddl/parse-statement.js";
import type { SemanticStatement } from "../ddl/statements.js";
import type { SqlSession } from "../semantic-layer.js";
import { SemanticViewError } from "../semantic-error.js";
import { significant, tokenize, type Token } from "../sql/lexer.js";
import { CLAUSE_WORDS } from "../sql/keywords.js";
import { quoteIdent, textExpression } from "../sql/quote.js";
import { closingParen, isKeyword, isName, isPunct } from "../sql/tokens.js";
import { requireDefinition, requireMetric } from "./lookup.js";
import { definitionToYaml } from "./yaml.js";
import { explainSemanticView } from "./explain.js";
import { getDdlPerRow } from "./get-ddl-per-row.js";
import { showMaterializations } from "./materializations.js";
import {
  describeView,
  dimensionsForMetric,
  getDdl,
  listViews,
  showColumns,
  showMembers,
  type Relation,
} from "./tables.js";

type TableFunction = (session: SqlSession, args: readonly Literal[], name: string) => Promise<Relation>;
type Literal = string | boolean;

const viewArg = (args: readonly Literal[], fn: string): string => {
  const v = args[0];
  if (typeof v !== "string")
    throw new SemanticViewError("invalid", `${fn}() expects the semantic view name as its first argument`);
  return v;
};

const members =
  (kind: "dimensions" | "metrics" | "facts"): TableFunction =>
  async (session, args, fn) =>
    showMembers(
      args.length === 0 ? await listDefinitions(session) : [await requireDefinition(session, viewArg(args, fn))],
      kind,
    );

const TABLE_FUNCTIONS: Record<string, TableFunction> = {
  list_semantic_views: async (session) => listViews(await listDefinitions(session)),
  list_terse_semantic_views: async (session) => listViews(await listDefinitions(session), true),
  describe_semantic_view: async (session, args, fn) =>
    describeView(await requireDefinition(session, viewArg(args, fn))),
  show_columns_in_semantic_view: async (session, args, fn) =>
    showColumns(await requireDefinition(session, viewArg(args, fn))),
  show_semantic_dimensions: members("dimensions"),
  show_semantic_metrics: members("metrics"),
  show_semantic_facts: members("facts"),
  show_semantic_dimensions_for_metric: async (session, args, fn) => {
    const def = await requireDefinition(session, viewArg(args, fn));
    return dimensionsForMetric(def, requireMetric(def, args[1], fn));
  },
  show_semantic_dimensions_all: members("dimensions"),
  show_semantic_metrics_all: members("metrics"),
  show_semantic_facts_all: members("facts"),
  show_semantic_materializations: async (session, args, fn) =>
    showMaterializations(
      args.length === 0 ? await listDefinitions(session) : [await requireDefinition(session, viewArg(args, fn))],
    ),
  show_semantic_materializations_all: async (session) => showMaterializations(await listDefinitions(session)),
};

/** A relation as a parenthesised query over literal rows; all columns VARCHAR. */
export function relationSql(r: Relation): string {
  const cols = r.columns.map(quoteIdent);
  const type = (i: number): string => r.types?.[i] ?? "VARCHAR";
  if (r.rows.length === 0) return `(SELECT ${cols.map((c, i) => `NULL::${type(i)} AS ${c}`).join(", ")} WHERE false)`;
  const values = r.rows.map((row) => `(${row.map(textExpression).join(", ")})`).join(", ");
  return `(SELECT ${cols.map((c, i) => `${c}::${type(i)} AS ${c}`).join(", ")} FROM (VALUES ${values}) AS __sv_rows(${cols.join(", ")}))`;
}

interface Call {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly args: Literal[];
  /** Index (in significant tokens) of the token after `)`. */
  readonly after: number;
}

function parseCall(tokens: Token[], i: number): Call {
  const name = tokens[i]!.value.toLowerCase();
  let j = i + 2; // after "("
  const args: Literal[] = [];
  const bad = (t: Token | undefined): never => {
    throw new SemanticViewError(
      "invalid",
      `${name}() arguments must be literals in the built-in semantic engine, found ${t === undefined ? "end of statement" : `'${t.text}'`}`,
    );
  };
  while (!isPunct(tokens[j], ")")) {
    const t = tokens[j];
    if (t?.kind === "string") args.push(t.value);
    else if (isKeyword(t, "TRUE") || isKeyword(t, "FALSE")) args.push(isKeyword(t, "TRUE"));
    else bad(t);
    j++;
    if (isPunct(tokens[j], ",")) j++;
    else if (!isPunct(tokens[j], ")")) bad(tokens[j]);
  }
  return { name, start: tokens[i]!.start, end: tokens[j]!.end, args, after: j + 1 };
}

const INTROSPECTION_NAME = /semantic_view|show_semantic_|get_ddl|\(\s*(?:desc|describe|show)\s/i;

/** SHOW / DESCRIBE semantic statements and the table function each one runs, for the subquery error. */
const STATEMENT_FUNCTIONS: Partial<Record<SemanticStatement["type"], string>> = {
  show_views: "list_semantic_views() / list_terse_semantic_views()",
  show_members: "show_semantic_dimensions|metrics|facts|materializations('v') (or ..._all())",
  show_columns: "show_columns_in_semantic_view('v')",
  describe: "describe_semantic_view('v')",
};

/** `get_ddl(kind, <name>, ...)` whose name argument is anything but one string literal. */
function computedViewName(tokens: readonly Token[], open: number): boolean {
  const close = closingParen(tokens, open);
  if (close === undefined) return false;
  const view = splitArguments(tokens, open, close)[1];
  return view !== undefined && !(view.length === 1 && view[0]!.kind === "string");
}

/** The top-level comma-separated arguments between `(` at `open` and its `)` at `close`. */
function splitArguments(tokens: readonly Token[], open: number, close: number): Token[][] {
  const args: Token[][] = [[]];
  for (let k = open + 1; k < close; k++) {
    const tok = tokens[k]!;
    if (isPunct(tok, "(")) {
      const end = closingParen(tokens, k) ?? close;
      args[args.length - 1]!.push(...tokens.slice(k, end + 1));
      k = end;
    } else if (isPunct(tok, ",")) args.push([]);
    else args[args.length - 1]!.push(tok);
  }
  return args.filter((a) => a.length > 0);
}

/** Index of the `)` matching the `(` at `open` (significant tokens). */
function closeOf(tokens: readonly Token[], open: number, name: string): number {
  const close = closingParen(tokens, open);
  if (close === undefined) throw new SemanticViewError("parse", `${name}: unbalanced parentheses in the call`);
  return close;
}

/** `( ... ) AS name` unless the call is followed by an alias. */
function withAlias(text: string, following: Token | undefined, name: string): string {
  const hasAlias =
    isName(following) && (following.kind === "quoted_ident" || !CLAUSE_WORDS.has(following.value.toLowerCase()));
  return hasAlias ? text : `${text} AS ${quoteIdent(name)}`;
}

/** Returns the rewritten SQL, or null when the statement calls no introspection function. */
export async function rewriteIntrospectionCalls(session: SqlSession, sql: string): Promise<string | null> {
  if (!INTROSPECTION_NAME.test(sql)) return null; // skip tokenizing e.g. expanded semantic_view() SQL
  const tokens = significant(tokenize(sql));
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const inner = tokens[i + 1];
    if (isPunct(t, "(") && (isKeyword(inner, "DESC") || isKeyword(inner, "DESCRIBE") || isKeyword(inner, "SHOW"))) {
      // The extension's SHOW SEMANTIC ... and DESCRIBE SEMANTIC VIEW are statements its parser hook
      // rewrites whole; written as a subquery they reach DuckDB's parser and fail there.
      const close = closeOf(tokens, i, "subquery");
      const statement = parseSemanticStatement(sql.slice(inner!.start, tokens[close - 1]!.end));
      const fn = statement === null ? undefined : STATEMENT_FUNCTIONS[statement.type];
      if (fn !== undefined) {
        throw new SemanticViewError(
          "parse",
          `syntax error at or near "SEMANTIC": ${inner!.value.toUpperCase()} SEMANTIC ... is a statement and cannot be a subquery; select from the table function instead: ${fn}`,
        );
      }
      continue;
    }
    if (t.kind !== "ident" || !isPunct(tokens[i + 1], "(") || isPunct(tokens[i - 1], ".")) continue;
    const name = t.value.toLowerCase();
    const fn = TABLE_FUNCTIONS[name];
    if (fn !== undefined) {
      const call = parseCall(tokens, i);
      const text = withAlias(relationSql(await fn(session, call.args, name)), tokens[call.after], name);
      edits.push({ start: call.start, end: call.end, text });
      i = call.after - 1;
    } else if (name === "explain_semantic_view") {
      const close = closeOf(tokens, i + 1, name);
      const relation = await explainSemanticView(session, tokens.slice(i + 2, close));
      edits.push({
        start: t.start,
        end: tokens[close]!.end,
        text: withAlias(relationSql(relation), tokens[close + 1], name),
      });
      i = close;
    } else if (name === "get_ddl" && computedViewName(tokens, i + 1)) {
      // A view name computed per row (a column, an expression): resolved by the database per row.
      const close = closeOf(tokens, i + 1, name);
      const args = splitArguments(tokens, i + 1, close);
      const [kind, view, qualified] = args.map((a) => sql.slice(a[0]!.start, a[a.length - 1]!.end));
      if (kind?.toUpperCase() !== "'SEMANTIC_VIEW'" || view === undefined || args.length > 3) {
        throw new SemanticViewError(
          "invalid",
          "get_ddl('SEMANTIC_VIEW', name [, fully_qualified]) expects the view name",
        );
      }
      const fullyQualified = qualified !== undefined && qualified.toUpperCase() === "TRUE";
      edits.push({ start: t.start, end: tokens[close]!.end, text: await getDdlPerRow(session, view, fullyQualified) });
      i = close;
    } else if (name === "get_ddl") {
      const call = parseCall(tokens, i);
      const [kind, view, qualified] = call.args;
      if (typeof kind !== "string" || kind.toUpperCase() !== "SEMANTIC_VIEW") {
        throw new SemanticViewError(
          "invalid",
          `GET_DDL: unsupported object type '${String(kind)}'. Only 'SEMANTIC_VIEW' is supported.`,
        );
      }
      if (typeof view !== "string")
        throw new SemanticViewError("invalid", "get_ddl('SEMANTIC_VIEW', name) expects the view name");
      const def = await requireDefinition(session, view);
      const reference = parseViewReference(view);
      edits.push({
        start: call.start,
        end: call.end,
        text: textExpression(getDdl(def, reference, qualified === true)),
      });
      i = call.after - 1;
    } else if (name === "read_yaml_from_semantic_view") {
      const call = parseCall(tokens, i);
      const def = await requireDefinition(session, viewArg(call.args, name));
      edits.push({ start: call.start, end: call.end, text: textExpression(definitionToYaml(def)) });
      i = call.after - 1;
    }
  }
  if (edits.length === 0) return null;
  let out = "";
  let pos = 0;
  for (const e of edits) {
    out += sql.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + sql.slice(pos);
}
