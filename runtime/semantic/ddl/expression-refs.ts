/**
 * A shallow reading of a member expression: which aggregate/window functions it calls and which
 * names it references (`q.n` and bare `n`). It is deliberately conservative: SQL keywords, type
 * names, function names, lambda parameters and named arguments are not reported as references.
 */
import { isAggregateFunction } from "../sql/aggregates.js";
import { significant, tokenize, type Token } from "../sql/lexer.js";

const KEYWORDS = new Set([
  "case",
  "when",
  "then",
  "else",
  "end",
  "and",
  "or",
  "not",
  "null",
  "is",
  "true",
  "false",
  "in",
  "between",
  "like",
  "ilike",
  "glob",
  "similar",
  "escape",
  "cast",
  "try_cast",
  "as",
  "interval",
  "distinct",
  "all",
  "filter",
  "where",
  "over",
  "partition",
  "by",
  "order",
  "asc",
  "desc",
  "nulls",
  "first",
  "last",
  "rows",
  "range",
  "groups",
  "preceding",
  "following",
  "unbounded",
  "current",
  "row",
  "exclude",
  "ties",
  "others",
  "no",
  "from",
  "for",
  "extract",
  "year",
  "years",
  "quarter",
  "quarters",
  "month",
  "months",
  "week",
  "weeks",
  "day",
  "days",
  "hour",
  "hours",
  "minute",
  "minutes",
  "second",
  "seconds",
  "millisecond",
  "milliseconds",
  "microsecond",
  "microseconds",
  "epoch",
  "dow",
  "doy",
  "isodow",
  "yearweek",
  "date",
  "time",
  "timestamp",
  "timestamptz",
  "exists",
  "any",
  "some",
  "collate",
  "at",
  "zone",
  "within",
  "group",
  "struct",
  "map",
  "array",
  "list",
  "lambda",
  "current_date",
  "current_time",
  "current_timestamp",
  "localtime",
  "localtimestamp",
  "columns",
]);

export interface NameRef {
  /** The qualifier of `q.n`, undefined for a bare name. */
  readonly qualifier?: string | undefined;
  readonly name: string;
  /** Offset inside the expression. */
  readonly position: number;
}

export interface ExpressionInfo {
  /** Aggregate functions called (lower case). */
  readonly aggregates: string[];
  /** True when the expression contains `OVER (` (a window function). */
  readonly hasWindow: boolean;
  readonly refs: NameRef[];
}

const isName = (t: Token | undefined): t is Token =>
  t !== undefined && (t.kind === "ident" || t.kind === "quoted_ident");
const isPunct = (t: Token | undefined, text: string): boolean =>
  t !== undefined && t.kind === "punct" && t.text === text;
const isOp = (t: Token | undefined, text: string): boolean => t !== undefined && t.kind === "op" && t.text === text;

export function analyzeExpression(expr: string): ExpressionInfo {
  const tokens = significant(tokenize(expr));
  const aggregates: string[] = [];
  const refs: NameRef[] = [];
  const lambdaParams = new Set<string>();
  let hasWindow = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!isName(t)) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const lower = t.value.toLowerCase();
    if (isPunct(prev, ".")) continue; // tail of a qualified name, handled with its head
    if (t.kind === "ident" && lower === "over" && isPunct(next, "(")) {
      hasWindow = true;
      continue;
    }
    if (isPunct(next, "(")) {
      if (t.kind === "ident" && isAggregateFunction(lower)) aggregates.push(lower);
      continue; // function call
    }
    // Type names: after `::` or after AS inside CAST(...).
    if (isOp(prev, "::") || (prev?.kind === "ident" && prev.value.toLowerCase() === "as")) continue;
    if (isOp(next, ":=") || isOp(next, "=>")) continue; // named argument
    if (isOp(next, "->")) {
      lambdaParams.add(lower);
      continue;
    }
    if (isPunct(next, ".") && isName(tokens[i + 2])) {
      const tail = tokens[i + 2]!;
      if (isPunct(tokens[i + 3], "(")) continue; // schema.function(...)
      if (isPunct(tokens[i + 3], ".") && isName(tokens[i + 4]) && isPunct(tokens[i + 5], "(")) continue;
      refs.push({ qualifier: t.value, name: tail.value, position: t.start });
      continue;
    }
    if (t.kind === "ident" && (KEYWORDS.has(lower) || lambdaParams.has(lower))) continue;
    refs.push({ name: t.value, position: t.start });
  }
  return { aggregates, hasWindow, refs };
}
