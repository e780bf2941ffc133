/**
 * Fan traps: a metric aggregated across a one-to-many edge it would multiply is an error naming
 * both tables. Which edges multiply depends on their direction, seen from the metric's table.
 */
import { identEquals } from "../sql/quote.js";
import type { MetricDef, RelationshipDef } from "../view-definition.js";
import { type ExpandContext, type Requirement } from "./context.js";
import { rewriteReferences } from "../sql/references.js";
import { firstFan, keyOf, type JoinTree } from "./join-graph.js";
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
    for (const req of rowReqs) {
      const fan = roles.fanOnTheWay(tree, req);
      if (fan !== undefined) fanTrapError(ctx, b, req, fan.rel);
    }
    for (const req of metricReqs.get(b)!) {
      const fan = roles.fanOnTheWay(tree, req);
      if (fan !== undefined) factAcrossFanOut(ctx, b, req.table, fan.rel);
    }
  }
}

/** A metric whose own expression uses a fact on a table it reaches only by fanning out. */
function factAcrossFanOut(ctx: ExpandContext, metric: MetricDef, table: string, rel: RelationshipDef): never {
  const own = ctx.graph.table(keyOf(metric.table!)).alias;
  const factTable = ctx.graph.table(table).alias;
  const onTable = ctx.def.facts.filter((f) => keyOf(f.table) === table);
  let fact = onTable[0];
  rewriteReferences(metric.expr, (ref) => {
    fact = onTable.find((f) => identEquals(f.name, ref.name) && identEquals(f.table, ref.qualifier ?? "")) ?? fact;
    return undefined;
  });
  ctx.fail(
    `fan trap detected -- '${metric.name}' (table '${own}') references the fact '${fact?.name ?? "?"}' on table '${factTable}', and relationship '${rel.name}' fans out on the way there, so joining it would multiply '${metric.name}'s rows. Reference a fact on a table reachable without fanning out, or define the fact on '${own}'.`,
  );
}

/**
 * Facts are listed one row per source row: every pair of tables a fact query touches must lie on
 * one chain, i.e. reachable from one of the two without stepping against a many-to-one edge.
 * Siblings under a shared parent would pair every row of one with every row of the other.
 */
export function checkFactPaths(ctx: ExpandContext, treeAt: (key: string) => JoinTree, tables: readonly string[]): void {
  const unique = [...new Set(tables)];
  const monotone = (from: string, to: string): boolean => {
    const tree = treeAt(from);
    return tree.depth.has(to) && firstFan(tree, to) === undefined;
  };
  for (let i = 0; i < unique.length; i++) {
    for (let j = i + 1; j < unique.length; j++) {
      const [a, b] = [unique[i]!, unique[j]!];
      if (monotone(a, b) || monotone(b, a)) continue;
      ctx.fail(
        `fact query references objects from incompatible table paths -- neither table '${ctx.graph.table(a).alias}' nor '${ctx.graph.table(b).alias}' can be reached from the other without crossing a one-to-many relationship, so joining them would duplicate the rows returned`,
      );
    }
  }
}
