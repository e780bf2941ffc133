/**
 * One FACTS / DIMENSIONS / METRICS entry: `[PRIVATE|PUBLIC] [alias.]name [USING (..)] [NON ADDITIVE BY (..)]
 * [LABELS (..)] AS <expression> [annotations]`. The expression is captured as exact source text
 * (comments blanked), up to a top-level `,` or `)` or an annotation keyword.
 */
import type { Access, NonAdditiveDim } from "../view-definition.js";
import { blankComments } from "../sql/blank-comments.js";
import { isName, isPunct, nesting } from "../sql/tokens.js";
import type { TokenStream } from "../sql/token-stream.js";
import type { DraftMember, MemberKind } from "./statements.js";
import { atAnnotation, once, parseComment, parseLabels, parseNameList, parseSynonyms } from "./parse-annotations.js";
import {
  misplacedNonAdditive,
  NON_ADDITIVE_AFTER_AS,
  parseNonAdditiveBy,
  parseWindowExpression,
} from "./parse-metric-modes.js";

export function parseMember(ts: TokenStream, kind: MemberKind): DraftMember {
  const position = ts.peek()?.start ?? ts.sql.length;
  let access: Access | undefined;
  const first = ts.peek();
  if ((ts.isKeyword("PRIVATE") || ts.isKeyword("PUBLIC")) && isName(ts.peek(1))) {
    access = ts.next().value.toLowerCase() as Access;
  }
  const head = ts.expectName(`${kind} name`);
  let table: string | undefined;
  let nameToken = head;
  if (ts.acceptPunct(".")) {
    table = head.value;
    nameToken = ts.expectName(`${kind} name after '${head.value}.'`);
  }
  const name = nameToken.value;
  const written = nameToken.kind === "quoted_ident" ? nameToken.text : undefined;
  if (table === undefined && kind !== "metric") {
    throw ts.error(`${kind} '${name}' must be qualified with its table alias (alias.${name})`, head);
  }
  if (access === "private" && kind === "dimension") {
    throw ts.error(`dimension '${name}' cannot be PRIVATE (only facts and metrics can)`, first);
  }
  let using: string[] = [];
  let isFilter = false;
  const annotated = new Set<string>();
  let nonAdditiveBy: NonAdditiveDim[] | undefined;
  for (;;) {
    if (ts.isKeyword("USING")) {
      if (kind !== "metric") throw ts.error(`USING is allowed only on metrics, not on ${kind} '${name}'`);
      if (table === undefined)
        throw ts.error(`derived metric '${name}' cannot have USING (it inherits the USING of its metrics)`);
      ts.next();
      using = parseNameList(ts, "relationship names");
    } else if (ts.isKeywords("NON", "ADDITIVE")) {
      if (kind !== "metric") throw ts.error(`NON ADDITIVE BY is allowed only on metrics, not on ${kind} '${name}'`);
      if (table === undefined)
        throw ts.error(
          `derived metric '${name}' cannot have NON ADDITIVE BY (only qualified metrics alias.${name} can)`,
        );
      nonAdditiveBy = parseNonAdditiveBy(ts, name);
    } else if (ts.isKeyword("LABELS")) {
      once(ts, annotated, "LABELS", `${kind} '${name}'`);
      isFilter = parseLabels(ts, kind, name);
    } else break;
  }
  ts.expectKeyword("AS", `after ${kind} '${table ? `${table}.` : ""}${name}'`);
  const { expr, exprPosition } = captureExpression(ts, kind, name);
  let comment: string | undefined;
  let synonyms: string[] = [];
  const entry = `${kind} '${name}'`;
  while (atAnnotation(ts)) {
    if (ts.isKeyword("COMMENT")) {
      once(ts, annotated, "COMMENT", entry);
      comment = parseComment(ts);
    } else if (ts.isKeyword("WITH")) {
      once(ts, annotated, "WITH SYNONYMS", entry);
      synonyms = parseSynonyms(ts);
    } else if (ts.isKeyword("LABELS")) {
      once(ts, annotated, "LABELS", entry);
      isFilter = parseLabels(ts, kind, name);
    } else if (ts.isKeyword("NON")) throw ts.error(NON_ADDITIVE_AFTER_AS);
    else throw ts.error(`USING must come before AS in metric '${name}'`);
  }
  if (misplacedNonAdditive(expr)) throw ts.error(NON_ADDITIVE_AFTER_AS, ts.tokens[ts.index - 1]);
  const window = kind === "metric" ? parseWindowExpression(expr, name, ts.sql, exprPosition) : undefined;
  return {
    kind,
    table,
    name,
    written,
    expr,
    exprPosition,
    access,
    using,
    comment,
    synonyms,
    isFilter,
    position,
    nonAdditiveBy,
    window,
  };
}

/** The expression's exact source text, up to a top-level ',' or ')', or an annotation keyword. */
function captureExpression(ts: TokenStream, kind: MemberKind, name: string): { expr: string; exprPosition: number } {
  const startIndex = ts.index;
  let depth = 0;
  while (!ts.atEnd()) {
    const token = ts.peek()!;
    const step = nesting(token);
    if (step < 0 && depth === 0) break; // the ')' closing the clause
    depth += step;
    if (depth === 0 && (isPunct(token, ",") || isPunct(token, ";") || (token.kind === "ident" && atAnnotation(ts))))
      break;
    ts.index++;
  }
  if (ts.index === startIndex) throw ts.error(`missing expression after AS for ${kind} '${name}'`);
  if (depth > 0) throw ts.error(`unbalanced parentheses in the expression of ${kind} '${name}'`);
  const first = ts.tokens[startIndex]!;
  const last = ts.tokens[ts.index - 1]!;
  return { expr: blankComments(ts.sql.slice(first.start, last.end)), exprPosition: first.start };
}
