/**
 * Parses the argument list of a `semantic_view(...)` call: the view name as a string literal, then
 * named parameters `dimensions := [...]`, `metrics := [...]`, `facts := [...]` (lists of string
 * literals) and `where_clause := '...'`.
 */
import type { SemanticQueryRequest } from "../expand/expand.js";
import { SemanticViewError } from "../semantic-error.js";
import type { Token } from "../sql/lexer.js";
import { isKeyword, isOp, isPunct, nesting } from "../sql/tokens.js";
import { didYouMean } from "../../text/suggest.js";

export interface SemanticViewCall {
  readonly view: string;
  readonly request: SemanticQueryRequest;
}

const PARAMETERS = ["dimensions", "metrics", "facts", "where_clause"] as const;
type ParameterName = (typeof PARAMETERS)[number];

const fail = (message: string): never => {
  throw new SemanticViewError("parse", `semantic_view: ${message}`);
};

/** Splits significant tokens between the call's parentheses at top-level commas. */
function splitArguments(tokens: readonly Token[]): Token[][] {
  const args: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    depth += nesting(t);
    if (depth === 0 && isPunct(t, ",")) {
      args.push(current);
      current = [];
      continue;
    }
    current.push(t);
  }
  if (current.length > 0 || args.length > 0) args.push(current);
  return args;
}

function stringValue(tokens: readonly Token[], what: string): string {
  const t = tokens[0];
  if (tokens.length === 1 && t !== undefined && (t.kind === "string" || t.kind === "dollar_string")) return t.value;
  if (tokens.length === 1 && isKeyword(t, "NULL")) {
    return fail(`${what} must not be NULL`);
  }
  return fail(`${what} must be a string literal, got ${tokens.map((x) => x.text).join(" ") || "nothing"}`);
}

function listValue(tokens: readonly Token[], name: string): string[] {
  if (!isPunct(tokens[0], "[") || !isPunct(tokens[tokens.length - 1], "]")) {
    return fail(`parameter '${name}' must be a list of strings such as ['a', 'b']`);
  }
  const inner = tokens.slice(1, -1);
  if (inner.length === 0) return [];
  const items = splitArguments(inner);
  return items
    .map((item, i) => {
      if (item.length === 0 && i === items.length - 1) return undefined; // trailing comma
      return stringValue(item, `each item of '${name}'`);
    })
    .filter((x): x is string => x !== undefined);
}

/** `tokens` are the significant tokens strictly between `(` and `)`. */
export function parseSemanticViewArguments(tokens: readonly Token[]): SemanticViewCall {
  const args = splitArguments(tokens);
  if (args.length === 0 || args[0]!.length === 0) fail("the first argument must be the semantic view name");
  const first = args[0]!;
  if (first.length > 1 && isNamedSeparator(first[1])) fail("the first argument must be the semantic view name");
  const view = stringValue(first, "the semantic view name");
  const seen = new Set<ParameterName>();
  const values: { dimensions: string[]; metrics: string[]; facts: string[]; whereClause?: string } = {
    dimensions: [],
    metrics: [],
    facts: [],
  };
  for (const arg of args.slice(1)) {
    const nameToken = arg[0];
    if (nameToken === undefined) fail("empty argument");
    if (!isNamedSeparator(arg[1]) || (nameToken!.kind !== "ident" && nameToken!.kind !== "quoted_ident")) {
      fail(`only the first argument may be positional; use named parameters such as dimensions := ['d']`);
    }
    const raw = nameToken!.value;
    const name = raw.toLowerCase();
    if (name === "where") {
      fail("unknown parameter 'where'; the pre-aggregation filter is named where_clause (where_clause := '...')");
    }
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      fail(`unknown parameter '${raw}'. Available: [${PARAMETERS.join(", ")}].${didYouMean(raw, PARAMETERS)}`);
    }
    const param = name as ParameterName;
    if (seen.has(param)) fail(`parameter '${param}' given twice`);
    seen.add(param);
    const valueTokens = arg.slice(2);
    if (param === "where_clause") values.whereClause = stringValue(valueTokens, "where_clause");
    else values[param] = listValue(valueTokens, param);
  }
  return { view, request: values };
}

function isNamedSeparator(t: Token | undefined): boolean {
  return isOp(t, ":=") || isOp(t, "=>");
}
