/**
 * Row-level answers (no metrics): `SELECT DISTINCT` over the dimensions, or the fact rows with
 * optional dimensions. Fact queries must stay on one chain of the join tree.
 */
import { emitSelect } from "./emit.js";
import { checkFactPaths } from "./fan-trap.js";
import { guardedFilter } from "./phantom-rows.js";
import type { ExpansionPlan } from "./plan.js";

export function emitRows(plan: ExpansionPlan): string {
  const { ctx, rowReqs, facts } = plan;
  const base = ctx.graph.baseKey;
  if (facts.length > 0)
    checkFactPaths(
      ctx,
      plan.treeAt,
      rowReqs.map((r) => r.table),
    );
  // The listed members' own tables decide the grain: the facts of a fact query, else the dimensions.
  const listed = facts.length > 0 ? facts : plan.dims;
  const filter = guardedFilter(
    plan,
    listed.map((m) => m.table),
  );
  return emitSelect(ctx, {
    tree: plan.treeAt(base),
    aliasOf: plan.aliasOf,
    shared: plan.members,
    scoped: plan.scoped,
    items: [...plan.dimItems, ...plan.factItems],
    needed: rowReqs.map((r) => r.table),
    filter,
    distinct: facts.length === 0,
    groupCount: 0,
  });
}
