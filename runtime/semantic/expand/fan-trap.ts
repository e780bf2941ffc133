/**
 * Fan traps: a metric aggregated across a one-to-many edge it would multiply is an error naming
 * both tables. Which edges multiply depends on their direction, seen from the metric's table.
 */
import type { MetricDef, RelationshipDef } from "../model.js";
import type { ExpandContext, Requirement } from "./context.js";
import { keyOf, type JoinTree } from "./join-graph.js";
import type { RolePaths } from "./roles.js";

/** The extension's fan-trap error: the metric, its table, who needs the join, and the edge. */
export function fanTrapError(ctx: ExpandContext, metric: MetricDef, req: Requirement, rel: RelationshipDef): never {
  const table = ctx.graph.table(keyOf(metric.table!)).alias;
  ctx.fail(
    `fan trap detected -- metric '${metric.name}' (table '${table}') would be duplicated when joined to ${req.label} (table '${ctx.graph.table(req.table).alias}') via relationship '${rel.name}' (many-to-one cardinality, inferred: FK is not PK/UNIQUE). This would inflate aggregation results. Remove the dimension, use a metric from the same table, or restructure the relationship.`,
  );
}

/** Every row-level requirement (and the metric's own) must be reachable without a fanning step. */
export function checkFanTraps(
  ctx: ExpandContext,
  roles: RolePaths,
  treeAt: (key: string) => JoinTree,
  bases: readonly MetricDef[],
  rowReqs: readonly Requirement[],
  metricReqs: ReadonlyMap<MetricDef, readonly Requirement[]>,
): void {
  for (const b of bases) {
    const tree = treeAt(keyOf(b.table!));
    for (const req of [...rowReqs, ...metricReqs.get(b)!]) {
      const fan = roles.reach(tree, req).find((s) => s.fans);
      if (fan !== undefined) fanTrapError(ctx, b, req, fan.rel);
    }
  }
}

/**
 * Facts are listed one row per source row: every pair of tables a fact query touches must lie on
 * one chain, i.e. reachable from one of the two without stepping against a many-to-one edge.
 * Siblings under a shared parent would pair every row of one with every row of the other.
 */
export function checkFactPaths(ctx: ExpandContext, treeAt: (key: string) => JoinTree, tables: readonly string[]): void {
  const unique = [...new Set(tables)];
  const monotone = (from: string, to: string): boolean => {
    const path = ctx.graph.path(treeAt(from), to);
    return path !== undefined && !path.some((s) => s.fans);
  };
  for (let i = 0; i < unique.length; i++) {
    for (let j = i + 1; j < unique.length; j++) {
      const [a, b] = [unique[i]!, unique[j]!];
      if (monotone(a, b) || monotone(b, a)) continue;
      ctx.fail(
        `fact query references objects from incompatible table paths -- tables '${ctx.graph.table(a).alias}' and '${ctx.graph.table(b).alias}' are not on the same root-to-leaf path in the relationship tree`,
      );
    }
  }
}
