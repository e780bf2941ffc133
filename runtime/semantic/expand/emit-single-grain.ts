/**
 * One base-anchored SELECT grouped by the dimensions: every metric's table reaches every joined
 * table without a fanning step, so the joined rows are at (or finer than) each metric's grain.
 */
import { emitSelect } from "./emit.js";
import type { ExpansionPlan } from "./plan.js";

export function emitSingleGrain(plan: ExpansionPlan): string {
  const { ctx, members } = plan;
  const base = ctx.graph.baseKey;
  const metricItems = plan.metrics.map((m) => ({
    sql: members.renderMetric(m, (b) => `(${plan.baseMetricSql(b, base)})`),
    name: m.name,
  }));
  return emitSelect(ctx, {
    tree: plan.treeAt(base),
    aliasOf: plan.aliasOf,
    items: [...plan.dimItems, ...metricItems],
    needed: plan.allTables,
    conditions: plan.conditions,
    distinct: false,
    groupCount: plan.dims.length,
  });
}
