/** Metrics: USING paths, base metrics (must aggregate) and derived metrics (over other metrics only). */
import type { MetricDef, RelationshipDef } from "../view-definition.js";
import { closestName, didYouMean } from "../../text/suggest.js";
import type { DraftMember } from "./statements.js";
import { lower, type ValidationContext } from "./validate-context.js";
import { reachable } from "./validate-graph.js";
import { checkScope } from "./validate-members.js";
import { checkMetricModes } from "./validate-metric-modes.js";

export function validateMetric(ctx: ValidationContext, m: DraftMember, rels: readonly RelationshipDef[]): MetricDef {
  const info = ctx.analyses.get(m)!;
  checkMetricModes(m, info, {
    dimensions: ctx.stmt.dimensions,
    metrics: ctx.stmt.metrics,
    fail: (msg, at) => ctx.fail(msg, at),
  });
  checkUsing(ctx, m, rels);
  // A window metric's expression names its inner metric and dimensions, checked with its mode above.
  if (m.window === undefined) {
    if (m.table === undefined) checkDerived(ctx, m);
    else checkBase(ctx, m);
  }
  return {
    name: m.name,
    written: m.written,
    table: m.table,
    expr: m.expr,
    access: m.access ?? "public",
    using: [...m.using],
    comment: m.comment,
    synonyms: [...m.synonyms],
    nonAdditiveBy: m.nonAdditiveBy !== undefined && m.nonAdditiveBy.length > 0 ? [...m.nonAdditiveBy] : undefined,
    window: m.window,
  };
}

function checkUsing(ctx: ValidationContext, m: DraftMember, rels: readonly RelationshipDef[]): void {
  for (const u of m.using) {
    const rel = rels.find((r) => lower(r.name) === lower(u));
    if (rel === undefined) {
      ctx.fail(
        `metric '${m.name}' USING references unknown relationship '${u}'. Available: [${rels.map((r) => r.name).join(", ")}].${didYouMean(
          u,
          rels.map((r) => r.name),
        )}`,
        m.position,
      );
    }
    // The relationship must leave the metric's table or a table below it.
    if (m.table !== undefined && !reachable(m.table, rel.fromAlias, rels)) {
      ctx.fail(
        `metric '${m.name}' USING relationship '${rel.name}' starts at table '${rel.fromAlias}', which is not reachable from the metric's table '${m.table}'`,
        m.position,
      );
    }
  }
}

/**
 * A derived metric combines other metrics: no aggregates, and every bare name must be a metric
 * (a qualified `alias.column` is left as a raw column), as the extension checks.
 */
function checkDerived(ctx: ValidationContext, m: DraftMember): void {
  const info = ctx.analyses.get(m)!;
  if (info.aggregates.length > 0) {
    ctx.fail(
      `derived metric '${m.name}' must not contain aggregate function '${info.aggregates[0]!}'. Derived metrics compose other metrics; use a regular metric for aggregation.`,
      m.exprPosition,
    );
  }
  const metrics = ctx.metricNames();
  for (const ref of info.refs) {
    const at = m.exprPosition < 0 ? -1 : m.exprPosition + ref.position;
    const target =
      ref.qualifier === undefined
        ? ctx.members.get(lower(ref.name))
        : ctx.memberOn(ref.qualifier, ref.name, ["metric"]);
    if (target?.kind === "metric") {
      if (lower(target.name) === lower(m.name)) {
        ctx.fail(
          `Circular dependency detected in derived metrics: ${m.name} (derived metric '${m.name}' references itself; cycle detected in derived metrics: ${m.name} -> ${m.name})`,
          at,
        );
      }
      continue;
    }
    if (ref.qualifier !== undefined) continue;
    const suggestion = closestName(ref.name, metrics);
    ctx.fail(
      `unknown metric '${ref.name}' referenced in derived metric '${m.name}'${suggestion === undefined ? "" : `; did you mean '${suggestion}'?`}. Available metrics: [${metrics.join(", ")}]`,
      at,
    );
  }
}

/** A base metric aggregates its table's rows (or combines metrics of its table). */
function checkBase(ctx: ValidationContext, m: DraftMember): void {
  const info = ctx.analyses.get(m)!;
  checkScope(ctx, m, info.refs, true);
  const refsMetric = info.refs.some((r) => {
    const t =
      r.qualifier === undefined ? ctx.members.get(lower(r.name)) : ctx.memberOn(r.qualifier, r.name, ["metric"]);
    return (
      t?.kind === "metric" &&
      lower(t.name) !== lower(m.name) &&
      (r.qualifier !== undefined || ctx.hasColumn(m.table!, r.name) !== true)
    );
  });
  if (info.aggregates.length === 0 && !refsMetric) {
    ctx.fail(
      `metric '${m.name}' must aggregate (e.g. SUM(${m.expr})); a row-level expression belongs in FACTS or DIMENSIONS`,
      m.exprPosition,
    );
  }
}
