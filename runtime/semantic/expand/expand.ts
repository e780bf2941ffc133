/**
 * Expands a `semantic_view()` request into plain DuckDB SQL: resolve the requested names, plan
 * (inline facts and derived metrics, pick role-playing paths, fence fan traps, choose the shape),
 * then emit: row-level SELECT, one base-anchored SELECT, or one CTE per metric grain joined
 * NULL-safely on the dimension keys. Window metrics wrap the ordinary expansion of their inner
 * metrics.
 */
import type { SemanticViewDefinition } from "../view-definition.js";
import { emitGrainCtes } from "./emit-grain-ctes.js";
import { emitRows } from "./emit-rows.js";
import { emitSingleGrain } from "./emit-single-grain.js";
import {
  planExpansion,
  resolveRequest,
  type ExpandedQuery,
  type ExpansionPlan,
  type SemanticQueryRequest,
} from "./plan.js";
import { expandWindowMetrics } from "./window-metrics.js";

export type { ExpandedQuery, SemanticQueryRequest } from "./plan.js";

const EMITTERS: Record<ExpansionPlan["mode"], (plan: ExpansionPlan) => string> = {
  rows: emitRows,
  "single-grain": emitSingleGrain,
  "grain-ctes": emitGrainCtes,
};

export function expandSemanticQuery(def: SemanticViewDefinition, request: SemanticQueryRequest): ExpandedQuery {
  const resolved = resolveRequest(def, request);
  const { dims, metrics, members, columns } = resolved;
  const windowed = expandWindowMetrics(
    def,
    { dims, metrics, whereClause: request.whereClause },
    { expandInner: expandSemanticQuery, baseMetricsOf: (m) => members.baseMetricsOf(m) },
  );
  if (windowed !== undefined) return { sql: windowed, columns };
  const plan = planExpansion(resolved, request.whereClause);
  return { sql: EMITTERS[plan.mode](plan), columns };
}
