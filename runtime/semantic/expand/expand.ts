/**
 * Expands a `semantic_view()` request into plain DuckDB SQL: resolve the requested names, plan
 * (inline facts and derived metrics, pick role-playing paths, fence fan traps, choose the shape),
 * then emit: row-level SELECT, one base-anchored SELECT, or one CTE per metric grain joined
 * NULL-safely on the dimension keys. Window metrics wrap the ordinary expansion of their inner
 * metrics.
 *
 * Members are inlined (the extension's SQL shape) unless a member's inlined text would pass
 * `INLINE_MEMBER_BYTES` (a chain of members each using the previous one twice doubles per level);
 * then facts and derived metrics are computed once each (`members.ts`, shared mode), which grows
 * linearly. Whatever the shape, the SQL may not exceed `MAX_EXPANDED_SQL_BYTES`.
 */
import type { SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { emitGrainCtes } from "./emit-grain-ctes.js";
import { emitRows } from "./emit-rows.js";
import { emitSingleGrain } from "./emit-single-grain.js";
import type { JoinLayout } from "./join-layout.js";
import { ExpansionTooLarge, type MemberSharing } from "./members.js";
import {
  planExpansion,
  resolveRequest,
  type ExpandedQuery,
  type ExpansionPlan,
  type SemanticQueryRequest,
} from "./plan.js";
import { expandWindowMetrics } from "./window-metrics.js";

export type { ExpandedQuery, SemanticQueryRequest } from "./plan.js";
export type { JoinLayout } from "./join-layout.js";

/** The largest expanded SQL a request may produce (8 MiB). */
export const MAX_EXPANDED_SQL_BYTES = 8 * 1024 * 1024;
/** Past this size one member's inlined text switches the request to shared members. */
export const INLINE_MEMBER_BYTES = 64 * 1024;

export interface ExpandOptions {
  /** `auto` (default): inline, shared when inlining grows too large; the others force a shape. */
  readonly sharing?: "auto" | MemberSharing;
  /** Overrides `MAX_EXPANDED_SQL_BYTES`. */
  readonly maxBytes?: number;
  /**
   * `tree` (default, what `semantic_view()` runs): each joined table's subtree nested so DuckDB joins
   * the small tables first; `chain`: the extension's layout, which `explain_semantic_view` prints.
   * Both answer identically (`join-layout.ts`).
   */
  readonly joins?: JoinLayout;
}

const EMITTERS: Record<ExpansionPlan["mode"], (plan: ExpansionPlan) => string> = {
  rows: emitRows,
  "single-grain": emitSingleGrain,
  "grain-ctes": emitGrainCtes,
};

export function expandSemanticQuery(
  def: SemanticViewDefinition,
  request: SemanticQueryRequest,
  options: ExpandOptions = {},
): ExpandedQuery {
  const sharing = options.sharing ?? "auto";
  const maxBytes = options.maxBytes ?? MAX_EXPANDED_SQL_BYTES;
  try {
    if (sharing === "shared") return expandWith(def, request, "shared", maxBytes, options);
    try {
      const budget = sharing === "auto" ? Math.min(INLINE_MEMBER_BYTES, maxBytes) : maxBytes;
      return expandWith(def, request, "inline", budget, options, maxBytes);
    } catch (error) {
      if (!(error instanceof ExpansionTooLarge) || sharing === "inline") throw error;
      return expandWith(def, request, "shared", maxBytes, options);
    }
  } catch (error) {
    if (!(error instanceof ExpansionTooLarge)) throw error;
    throw new SemanticViewError(
      "invalid",
      `semantic view '${def.name}': the expanded SQL would exceed the limit of ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MiB) for this request; request fewer members or simplify the facts and derived metrics it uses`,
    );
  }
}

function expandWith(
  def: SemanticViewDefinition,
  request: SemanticQueryRequest,
  sharing: MemberSharing,
  memberBudget: number,
  options: ExpandOptions,
  maxBytes = memberBudget,
): ExpandedQuery {
  const resolved = resolveRequest(def, request, sharing, memberBudget, options.joins);
  const { dims, metrics, members, columns } = resolved;
  const windowed = expandWindowMetrics(
    def,
    { dims, metrics, whereClause: request.whereClause },
    {
      expandInner: (innerDef, innerRequest) => expandSemanticQuery(innerDef, innerRequest, options),
      baseMetricsOf: (m) => members.baseMetricsOf(m),
    },
  );
  let sql = windowed;
  if (sql === undefined) {
    const plan = planExpansion(resolved, request.whereClause);
    sql = EMITTERS[plan.mode](plan);
  }
  if (sql.length > maxBytes) throw new ExpansionTooLarge(sql.length);
  return { sql, columns };
}
