/** Metrics: USING paths, base metrics (must aggregate) and derived metrics (over other metrics only). */
import type { MetricDef, RelationshipDef } from "../model.js";
import { didYouMean } from "../sql/suggest.js";
import type { DraftMember } from "./statements.js";
import { lower, type ValidationContext } from "./validate-context.js";
import { reachable } from "./validate-graph.js";
import { checkScope } from "./validate-members.js";

export function validateMetric(ctx: ValidationContext, m: DraftMember, rels: readonly RelationshipDef[]): MetricDef {
  const info = ctx.analyses.get(m)!;
  if (info.hasWindow) ctx.fail(`metric '${m.name}': window metrics (OVER) are not supported by the built-in engine`, m.exprPosition);
  checkUsing(ctx, m, rels);
  if (m.table === undefined) checkDerived(ctx, m);
  else checkBase(ctx, m);
  return {
    name: m.name,
    table: m.table,
    expr: m.expr,
    access: m.access ?? "public",
    using: [...m.using],
    comment: m.comment,
    synonyms: [...m.synonyms],
  };
}

function checkUsing(ctx: ValidationContext, m: DraftMember, rels: readonly RelationshipDef[]): void {
  for (const u of m.using) {
    const rel = rels.find((r) => lower(r.name) === lower(u));
    if (rel === undefined) {
      ctx.fail(`metric '${m.name}' USING references unknown relationship '${u}'. Available: [${rels.map((r) => r.name).join(", ")}].${didYouMean(u, rels.map((r) => r.name))}`, m.position);
    }
    // The relationship must leave the metric's table or a table below it.
    if (m.table !== undefined && !reachable(m.table, rel.fromAlias, rels)) {
      ctx.fail(`metric '${m.name}' USING relationship '${rel.name}' starts at table '${rel.fromAlias}', which is not reachable from the metric's table '${m.table}'`, m.position);
    }
  }
}

/**
 * A derived metric combines other metrics. As in the extension, a name that is not a metric is
 * taken for a column: accepted here, and DuckDB reports it if it does not exist when queried.
 */
function checkDerived(ctx: ValidationContext, m: DraftMember): void {
  const info = ctx.analyses.get(m)!;
  if (info.aggregates.length > 0) {
    ctx.fail(`derived metric '${m.name}' uses the aggregate function ${info.aggregates[0]!.toUpperCase()}(); derived metrics combine other metrics (qualify it as alias.${m.name} to make it a base metric)`, m.exprPosition);
  }
  for (const ref of info.refs) {
    const target = ref.qualifier === undefined ? ctx.members.get(lower(ref.name)) : ctx.memberOn(ref.qualifier, ref.name, ["metric"]);
    if (target?.kind === "metric" && lower(target.name) === lower(m.name)) {
      ctx.fail(`derived metric '${m.name}' references itself`, m.exprPosition < 0 ? -1 : m.exprPosition + ref.position);
    }
  }
}

/** A base metric aggregates its table's rows (or combines metrics of its table). */
function checkBase(ctx: ValidationContext, m: DraftMember): void {
  const info = ctx.analyses.get(m)!;
  checkScope(ctx, m, info.refs, true);
  const refsMetric = info.refs.some((r) => {
    const t = r.qualifier === undefined ? ctx.members.get(lower(r.name)) : ctx.memberOn(r.qualifier, r.name, ["metric"]);
    return t?.kind === "metric" && lower(t.name) !== lower(m.name) && (r.qualifier !== undefined || ctx.hasColumn(m.table!, r.name) !== true);
  });
  if (info.aggregates.length === 0 && !refsMetric) {
    ctx.fail(`metric '${m.name}' must aggregate (e.g. SUM(${m.expr})); a row-level expression belongs in FACTS or DIMENSIONS`, m.exprPosition);
  }
}
