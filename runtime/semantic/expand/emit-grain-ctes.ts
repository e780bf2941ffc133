/**
 * Metrics at different grains (`docs/explanation/metric-grain.rst`): one CTE per metric table,
 * anchored there and grouped by the dimensions (an active semi-additive metric's CTE takes its
 * snapshot first), joined NULL-safely on the dimension values; derived metrics are evaluated over
 * the per-grain aggregates.
 */
import type { MemberDef, MetricDef } from "../view-definition.js";
import { quoteIdent } from "../sql/quote.js";
import { baseColumn, layerDerivedMetrics } from "./derived-layers.js";
import { emitSelect, type SelectSpec } from "./emit.js";
import { dimColumn, grainAlias, groupByGrain, joinGrains, metricColumn, type Grain } from "./grains.js";
import { keyOf } from "./join-graph.js";
import type { ExpansionPlan } from "./plan.js";
import { checkSnapshotRoles, isActiveSemiAdditive, snapshotGrainSql } from "./semi-additive.js";

export function emitGrainCtes(plan: ExpansionPlan): string {
  const { ctx, bases, dims } = plan;
  checkNoRoleBoundGrain(plan);
  const grains = groupByGrain(bases, (b) => keyOf(b.table!));
  if (grains.length > 1 && bases.some((b) => isActiveSemiAdditive(b, dims))) checkSnapshotRoles(ctx, dims);
  const baseIndex = new Map(bases.map((b, i) => [b, i]));
  const grainOf = new Map<MetricDef, number>();
  grains.forEach((g, gi) => g.bases.forEach((b) => grainOf.set(b, gi)));
  const cell = (b: MetricDef): string =>
    `${grainAlias(grainOf.get(b)!)}.${quoteIdent(metricColumn(baseIndex.get(b)!))}`;
  const members = plan.members;
  const shared = members.sharing === "shared" && plan.metrics.some((m) => m.table === undefined);
  const dimNames = dims.map((d) => d.name);
  const core = joinGrains({
    ctes: grains.map((g) => grainCte(plan, g, baseIndex)),
    dimNames,
    metricItems: shared
      ? bases.map((b, i) => ({ name: baseColumn(i), sql: cell(b) }))
      : plan.metrics.map((m) => ({ name: m.name, sql: members.renderMetric(m, cell) })),
  });
  return shared ? layerDerivedMetrics({ core, dimNames, metrics: plan.metrics, bases, members }) : core;
}

/**
 * Per grain, only a dimension's expression — queried, or the unqueried NON ADDITIVE BY dimension of
 * a snapshot, scoped by its metric's USING — is re-pointed at a role-played table's scoped alias; a
 * filter, fact or metric sitting on one stays an error, as in the extension.
 */
function checkNoRoleBoundGrain(plan: ExpansionPlan): void {
  const { ctx } = plan;
  const graph = ctx.graph;
  const roleBound = [...plan.rowReqs, ...plan.bases.flatMap((b) => plan.metricReqs.get(b)!)]
    .filter((r) => !r.label.startsWith("dimension "))
    .find((r) => graph.roleTables.has(r.table));
  if (roleBound !== undefined) {
    ctx.fail(
      `fan trap detected -- ${roleBound.label} uses role-playing table '${graph.table(roleBound.table).alias}', which a query over metrics at different grains cannot scope; query it with metrics at a single grain`,
    );
  }
}

/** One grain's CTE body: its base metrics by the dimensions, anchored at the grain's table. */
function grainCte(plan: ExpansionPlan, g: Grain, baseIndex: ReadonlyMap<MetricDef, number>): string {
  const { ctx, dims, dimItems } = plan;
  const select = (items: SelectSpec["items"], groupCount: number): string =>
    emitSelect(ctx, {
      tree: plan.treeAt(g.anchor),
      aliasOf: plan.aliasOf,
      shared: plan.members,
      scoped: plan.scoped,
      items,
      needed: [
        g.anchor,
        ...plan.rowReqs.map((r) => r.table),
        ...g.bases.flatMap((b) => plan.metricReqs.get(b)!.map((r) => r.table)),
      ],
      filter: plan.filter,
      distinct: false,
      groupCount,
    });
  const metricSql = (b: MetricDef): string => plan.baseMetricSql(b, g.anchor);
  if (g.bases.some((b) => isActiveSemiAdditive(b, dims))) {
    const grain = {
      dims: dims.map((d, i) => ({ sql: dimItems[i]!.sql, member: d })),
      metrics: g.bases.map((b) => ({ metric: b, sql: metricSql(b), index: baseIndex.get(b)! })),
      dimensionSql: (d: MemberDef) => plan.scoped(plan.members.of(d)),
      viewDimensions: ctx.def.dimensions,
    };
    return snapshotGrainSql(ctx.def.name, grain, (items) => select(items, 0));
  }
  const items = [
    ...dimItems.map((d, i) => ({ sql: d.sql, name: dimColumn(i) })),
    ...g.bases.map((b) => ({ sql: metricSql(b), name: metricColumn(baseIndex.get(b)!) })),
  ];
  return select(items, dims.length);
}
