/**
 * The phantom-row guard: every join is a LEFT JOIN anchored at the base table, so a base row with no
 * row in a table below it (a parent with no children) survives as one NULL-extended row. When all
 * the members a query lists live on one table below the base, that table is the query's grain and
 * only its real rows count: `WHERE <its key> IS NOT NULL` (the filter parenthesized, so a top-level
 * OR cannot swallow the guard). A table above the base gets no guard: its NULLs belong to base rows
 * whose foreign key is NULL or dangling, which are rows of the view.
 */
import { keySql, type RowFilter } from "./emit.js";
import { keyOf } from "./join-graph.js";
import type { ExpansionPlan } from "./plan.js";

export function guardedFilter(plan: ExpansionPlan, memberTables: readonly string[]): RowFilter {
  const { ctx, filter } = plan;
  const tables = new Set(memberTables.map(keyOf));
  if (tables.size !== 1) return filter;
  const only = [...tables][0]!;
  const base = ctx.graph.baseKey;
  if (only === base || !ctx.graph.below(only, base)) return filter;
  const key = keySql(ctx, only, plan.aliasOf(only));
  if (key === undefined) return filter;
  return {
    conditions: [...filter.conditions.map((c) => `(${c})`), `${key} IS NOT NULL`],
    tables: [...filter.tables, only],
  };
}
