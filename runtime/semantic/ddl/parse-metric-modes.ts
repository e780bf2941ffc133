/**
 * The two metric modes beyond plain aggregates, parsed from a metric entry:
 * - `NON ADDITIVE BY (dim [ASC|DESC] [NULLS FIRST|LAST], ...)` before AS (semi-additive);
 * - `FUNC(inner_metric[, args]) OVER ([PARTITION BY [EXCLUDING] d, ...] [ORDER BY d ..., ...] [frame])`
 *   as the whole expression (window metric).
 * Both SQL DDL and the YAML keys `non_additive_by` / `window_spec` produce the same model entries.
 */
import type { NonAdditiveDim, NullsOrder, SortOrder, WindowOrderBy, WindowSpec } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { callsWindowFunction } from "../sql/function-classes.js";
import { significant, tokenize, type Token } from "../sql/lexer.js";
import { isKeyword, isName, isPunct } from "../sql/tokens.js";
import { describe, parseError, type TokenStream } from "../sql/token-stream.js";

/** Frame clauses start with one of these; everything from there to the closing ')' is passed through. */
const FRAME_STARTS = ["ROWS", "RANGE", "GROUPS"];

/**
 * Shared by NON ADDITIVE BY and window ORDER BY: `[ASC|DESC] [NULLS FIRST|LAST]` after a name.
 * Unless written, NULLS is LAST, or follows the direction (DESC → FIRST) when `nullsFollowOrder`
 * (both clauses do, as the extension's parser).
 */
function sortSpec(
  peek: (offset: number) => Token | undefined,
  advance: () => void,
  fail: (message: string) => never,
  nullsFollowOrder = false,
): { order: SortOrder; nulls: NullsOrder } {
  let order: SortOrder = "asc";
  if (isKeyword(peek(0), "ASC") || isKeyword(peek(0), "DESC")) {
    order = peek(0)!.value.toLowerCase() as SortOrder;
    advance();
  }
  let nulls: NullsOrder = nullsFollowOrder && order === "desc" ? "first" : "last";
  if (isKeyword(peek(0), "NULLS")) {
    advance();
    if (!isKeyword(peek(0), "FIRST") && !isKeyword(peek(0), "LAST"))
      fail(`expected FIRST or LAST after NULLS, found ${describe(peek(0))}`);
    nulls = peek(0)!.value.toLowerCase() as NullsOrder;
    advance();
  }
  return { order, nulls };
}

/** `NON ADDITIVE BY (dim [ASC|DESC] [NULLS FIRST|LAST], ...)`; the stream is at NON. */
export function parseNonAdditiveBy(ts: TokenStream, metric: string): NonAdditiveDim[] {
  ts.expectKeyword("NON");
  ts.expectKeyword("ADDITIVE", "after NON");
  ts.expectKeyword("BY", "after NON ADDITIVE");
  ts.expectPunct("(", "after NON ADDITIVE BY");
  const out: NonAdditiveDim[] = [];
  do {
    // Kept as written (`o."order date"`), as the extension stores and shows it.
    const first = ts.expectName(`NON ADDITIVE BY dimension of metric '${metric}'`);
    let last = first;
    if (ts.isPunct(".") && isName(ts.peek(1))) {
      ts.next();
      last = ts.next();
    }
    const dimension = ts.sql.slice(first.start, last.end);
    const spec = sortSpec(
      (o) => ts.peek(o),
      () => void ts.next(),
      (message) => {
        throw ts.error(`${message} in NON ADDITIVE BY of metric '${metric}'`);
      },
      true,
    );
    out.push({ dimension, ...spec });
  } while (ts.acceptPunct(","));
  ts.expectPunct(")", `after the NON ADDITIVE BY dimensions of metric '${metric}'`);
  return out;
}

export const NON_ADDITIVE_AFTER_AS =
  "'NON ADDITIVE BY (...)' must come BEFORE 'AS' in a metric entry. Form: 'alias.name [USING (...)] [NON ADDITIVE BY (...)] AS expr'.";

/** True when an expression swallowed a NON ADDITIVE BY clause (written after AS, maybe in parentheses). */
export function misplacedNonAdditive(expr: string): boolean {
  const tokens = significant(tokenize(expr));
  return tokens.some(
    (t, i) => isKeyword(t, "NON") && isKeyword(tokens[i + 1], "ADDITIVE") && isKeyword(tokens[i + 2], "BY"),
  );
}

/**
 * Parses a window metric expression. Returns undefined when the expression has no OVER clause.
 * @param sql the statement (for error carets) and `offset` the expression's offset in it (-1: none).
 */
export function parseWindowExpression(expr: string, metric: string, sql?: string, offset = -1): WindowSpec | undefined {
  const tokens = significant(tokenize(expr));
  if (!callsWindowFunction(tokens)) return undefined;
  let i = 0;
  const fail = (message: string, at: Token | undefined = tokens[i]): never => {
    const full = `window metric '${metric}': ${message}`;
    if (sql === undefined || offset < 0) throw new SemanticViewError("parse", full);
    throw parseError(sql, full, offset + (at?.start ?? expr.length));
  };
  const acceptComma = (): boolean => {
    if (!isPunct(tokens[i], ",")) return false;
    i++;
    return true;
  };
  const shape = "a window metric is exactly FUNC(inner_metric[, args]) OVER (...), with nothing around it";
  const fn = tokens[i];
  if (!isName(fn) || !isPunct(tokens[i + 1], "(")) fail(shape, fn);
  i += 2;
  const inner = tokens[i];
  if (!isName(inner))
    fail(`expected the inner metric name as the first argument of ${fn!.value}(), found ${describe(inner)}`);
  i++;
  if (isPunct(tokens[i], ".")) fail("the inner metric is named without a table alias", tokens[i]);
  // Extra arguments: SQL text between top-level commas.
  const extraArgs: string[] = [];
  while (isPunct(tokens[i], ",")) {
    i++;
    const start = i;
    let depth = 0;
    while (i < tokens.length && !(depth === 0 && (isPunct(tokens[i], ",") || isPunct(tokens[i], ")")))) {
      if (isPunct(tokens[i], "(")) depth++;
      if (isPunct(tokens[i], ")")) depth--;
      i++;
    }
    if (i === start) fail("empty argument");
    extraArgs.push(expr.slice(tokens[start]!.start, tokens[i - 1]!.end));
  }
  if (!isPunct(tokens[i], ")")) fail(`expected ',' or ')' after the inner metric, found ${describe(tokens[i])}`);
  i++;
  if (!isKeyword(tokens[i], "OVER") || !isPunct(tokens[i + 1], "(")) fail(shape);
  i += 2;

  /** A dimension reference, `[alias.]name`, kept as written. */
  const reference = (what: string): string => {
    if (!isName(tokens[i])) fail(`expected a dimension name in ${what}, found ${describe(tokens[i])}`);
    const first = tokens[i]!;
    i++;
    if (isPunct(tokens[i], ".") && isName(tokens[i + 1])) i += 2;
    return expr.slice(first.start, tokens[i - 1]!.end);
  };
  const names = (what: string): string[] => {
    const out: string[] = [];
    do out.push(reference(what));
    while (acceptComma());
    return out;
  };
  let excludingDims: string[] = [];
  let partitionDims: string[] = [];
  if (isKeyword(tokens[i], "PARTITION")) {
    i++;
    if (!isKeyword(tokens[i], "BY")) fail(`expected BY after PARTITION, found ${describe(tokens[i])}`);
    i++;
    if (isKeyword(tokens[i], "EXCLUDING")) {
      i++;
      excludingDims = names("PARTITION BY EXCLUDING");
    } else {
      partitionDims = names("PARTITION BY");
    }
  }
  const orderBy: WindowOrderBy[] = [];
  if (isKeyword(tokens[i], "ORDER")) {
    i++;
    if (!isKeyword(tokens[i], "BY")) fail(`expected BY after ORDER, found ${describe(tokens[i])}`);
    i++;
    do {
      const dimension = reference("ORDER BY");
      const spec = sortSpec(
        (o) => tokens[i + o],
        () => void i++,
        (message) => fail(`${message} in ORDER BY`),
        true,
      );
      orderBy.push({ dimension, ...spec });
    } while (acceptComma());
  }
  let frame: string | undefined;
  if (FRAME_STARTS.some((w) => isKeyword(tokens[i], w))) {
    const start = i;
    let depth = 0;
    while (i < tokens.length && !(depth === 0 && isPunct(tokens[i], ")"))) {
      if (isPunct(tokens[i], "(")) depth++;
      if (isPunct(tokens[i], ")")) depth--;
      i++;
    }
    frame = expr.slice(tokens[start]!.start, tokens[i - 1]!.end);
  }
  if (!isPunct(tokens[i], ")")) {
    fail(
      `unexpected ${describe(tokens[i])} in OVER (...); expected PARTITION BY [EXCLUDING], ORDER BY, a ROWS/RANGE/GROUPS frame or ')'`,
    );
  }
  i++;
  if (i < tokens.length) fail(shape);
  return { function: fn!.value, innerMetric: inner!.text, extraArgs, excludingDims, partitionDims, orderBy, frame };
}
