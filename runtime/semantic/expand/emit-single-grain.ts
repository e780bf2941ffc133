/**
 * One base-anchored SELECT grouped by the dimensions: every metric's table reaches every joined
 * table without a fanning step, so the joined rows are at (or finer than) each metric's grain.
 */
import { baseColumn, layerDerivedMetrics } from "./derived-layers.js";
import { emitSelect } from "./emit.js";
import { guardedFilter } from "./phantom-rows.js";
import type { ExpansionPlan } from "./plan.js";

export function emitSingleGrain(plan: ExpansionPlan): string {
  const { ctx, members } = plan;
  const base = ctx.graph.baseKey;
  const shared = members.sharing === "shared" && plan.metrics.some((m) => m.table === undefined);
  const metricItems = shared
    ? plan.bases.map((b, i) => ({ sql: `(${plan.baseMetricSql(b, base)})`, name: baseColumn(i) }))
    : plan.metrics.map((m) => ({
        sql: members.renderMetric(m, (b) => `(${plan.baseMetricSql(b, base)})`),
        name: m.name,
      }));
  const core = emitSelect(ctx, {
    tree: plan.treeAt(base),
    aliasOf: plan.aliasOf,
    shared: plan.members,
    scoped: plan.scoped,
    items: [...plan.dimItems, ...metricItems],
    needed: plan.allTables,
    // A grouped query whose dimensions and metrics all sit on one table below the base has no
    // group for base rows without that table's rows (a customer without orders is no order status).
    filter: guardedFilter(plan, [...plan.dims.map((d) => d.table), ...plan.bases.map((b) => b.table!)]),
    distinct: false,
    groupCount: plan.dims.length,
  });
  if (!shared) return core;
  return layerDerivedMetrics({
    core,
    dimNames: plan.dims.map((d) => d.name),
    metrics: plan.metrics,
    bases: plan.bases,
    members,
  });
}
