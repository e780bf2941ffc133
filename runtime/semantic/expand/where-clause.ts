/**
 * `where_clause`: a pre-aggregation predicate over member names. Members become `(expr)`; other
 * identifiers pass through; naming a metric is an error.
 */
import { identEquals } from "../sql/quote.js";
import { type ExpandContext } from "./context.js";
import { rewriteReferences, tokensOf } from "../sql/references.js";
import { keyOf } from "./join-graph.js";
import type { MemberSql } from "./members.js";

export interface WhereSql {
  readonly sql: string;
  /** Keys of the tables the predicate needs joined. */
  readonly tables: string[];
}

export function whereSql(ctx: ExpandContext, members: MemberSql, raw: string | undefined): WhereSql | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  checkPredicateShape(ctx, raw);
  const rowMembers = [...ctx.def.dimensions, ...ctx.def.facts];
  const aliases: string[] = [];
  const sql = rewriteReferences(raw, (ref) => {
    const member = rowMembers.find(
      (m) => identEquals(m.name, ref.name) && (ref.qualifier === undefined || identEquals(m.table, ref.qualifier)),
    );
    if (member !== undefined) {
      // The member's own table is joined even when its expression names columns bare.
      aliases.push(...members.tablesOf(member.expr, member.table, [member]));
      return `(${members.of(member)})`;
    }
    if (ref.qualifier !== undefined) aliases.push(ref.qualifier);
    const metric = members.metricRef(ref.qualifier, ref.name);
    if (metric !== undefined) {
      ctx.fail(
        `where_clause cannot reference metric '${metric.name}'; it filters rows before aggregation (filter metrics in an outer WHERE)`,
      );
    }
    return undefined;
  });
  const tables: string[] = [];
  for (const alias of aliases) {
    const k = keyOf(alias);
    if (ctx.graph.tables.has(k) && !tables.includes(k)) tables.push(k);
  }
  return { sql, tables };
}

/** The predicate is spliced into WHERE (...): it must stay one balanced expression. */
function checkPredicateShape(ctx: ExpandContext, raw: string): void {
  let depth = 0;
  for (const t of tokensOf(raw)) {
    if (t.kind !== "punct") continue;
    if (t.text === ";") ctx.fail("where_clause must be a single predicate (found ';')");
    if (t.text === "(") depth++;
    if (t.text === ")" && --depth < 0) ctx.fail("where_clause has an unbalanced ')'");
  }
  if (depth !== 0) ctx.fail("where_clause has an unbalanced '('");
}
