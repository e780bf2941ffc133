/**
 * A shallow reading of a member expression: which aggregate/window functions it calls and which
 * names it references (`q.n` and bare `n`). It is deliberately conservative: SQL keywords, type
 * names, function names, lambda parameters and named arguments are not reported as references.
 */
import { aggregateCalled, opensWindow } from "../sql/function-classes.js";
import { EXPRESSION_KEYWORDS } from "../sql/keywords.js";
import { significant, tokenize } from "../sql/lexer.js";
import { isName, isOp, isPunct, isTypePosition, typesLiteral } from "../sql/tokens.js";

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
    if (opensWindow(t, next)) {
      hasWindow = true;
      continue;
    }
    if (isPunct(next, "(")) {
      const aggregate = aggregateCalled(prev, t, next);
      if (aggregate !== undefined) aggregates.push(aggregate);
      continue; // function call
    }
    if (isTypePosition(prev) || typesLiteral(t, next)) continue;
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
    if (t.kind === "ident" && (EXPRESSION_KEYWORDS.has(lower) || lambdaParams.has(lower))) continue;
    refs.push({ name: t.value, position: t.start });
  }
  return { aggregates, hasWindow, refs };
}
