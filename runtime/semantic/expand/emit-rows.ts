/**
 * Row-level answers (no metrics): `SELECT DISTINCT` over the dimensions, or the fact rows with
 * optional dimensions. Fact queries must stay on one chain of the join tree.
 */
import { keySql, emitSelect } from "./emit.js";
import { checkFactPaths } from "./fan-trap.js";
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
  const memberTables = new Set(rowReqs.filter((r) => r.label !== "where_clause").map((r) => r.table));
  const conditions = [...plan.conditions];
  if (memberTables.size === 1) {
    // Phantom-row guard: members of one joined table only list rows that table really has.
    const only = [...memberTables][0]!;
    const key = only === base ? undefined : keySql(ctx, only, plan.aliasOf(only));
    if (key !== undefined) conditions.push(`${key} IS NOT NULL`);
  }
  return emitSelect(ctx, {
    tree: plan.treeAt(base),
    aliasOf: plan.aliasOf,
    items: [...plan.dimItems, ...plan.factItems],
    needed: rowReqs.map((r) => r.table),
    conditions,
    distinct: facts.length === 0,
    groupCount: 0,
  });
}
