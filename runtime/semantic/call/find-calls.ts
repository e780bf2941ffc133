/** The `semantic_view(...)` calls of a tokenized statement (not `x.semantic_view`, a column or function of x). */
import { CLAUSE_WORDS } from "../sql/keywords.js";
import type { Token } from "../sql/lexer.js";
import { SemanticViewError } from "../semantic-error.js";
import { closingParen, isKeyword, isName, isPunct, nextSignificantIndex, previousSignificant } from "../sql/tokens.js";

export interface CallSite {
  /** Token indexes: the `semantic_view` name, its `(` and matching `)`. */
  readonly name: number;
  readonly open: number;
  readonly close: number;
  /** No alias written and the call is not wrapped in parentheses (where DuckDB allows none). */
  readonly addAlias: boolean;
}

export function findCalls(tokens: readonly Token[]): CallSite[] {
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
