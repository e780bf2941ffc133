/**
 * Fan traps: a metric aggregated across a one-to-many edge it would multiply is an error naming
 * both tables. Which edges multiply depends on their direction, seen from the metric's table.
 */
import type { MetricDef } from "../model.js";
import type { ExpandContext, Requirement } from "./context.js";
import { keyOf, type JoinTree } from "./join-graph.js";
import type { RolePaths } from "./roles.js";

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
    const tk = keyOf(b.table!);
    const tree = treeAt(tk);
    for (const req of [...rowReqs, ...metricReqs.get(b)!]) {
      const fan = roles.reach(tree, req).find((s) => s.fans);
      if (fan !== undefined) {
        ctx.fail(
          `fan trap detected -- metric '${b.name}' (table '${ctx.graph.table(tk).alias}') would be duplicated when joined to ${req.label} (table '${ctx.graph.table(req.table).alias}') through the one-to-many relationship '${fan.rel.name}'`,
        );
      }
    }
  }
}
