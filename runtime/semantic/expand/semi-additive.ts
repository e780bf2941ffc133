/**
 * Semi-additive metrics (`NON ADDITIVE BY`): snapshot selection before aggregation.
 *
 * A metric is *active* for a query when at least one of its NON ADDITIVE BY dimensions is not
 * queried; when all are queried it is an ordinary additive metric (Snowflake's rule). An active
 * metric's grain is computed in two steps:
 *
 *   SELECT dims, AGG(CASE WHEN __sv_rnK = 1 THEN __sv_aJ END) ..., AGG(__sv_aJ) ...
 *   FROM (SELECT dims, <aggregate argument> AS __sv_aJ ...,
 *                RANK() OVER (PARTITION BY <queried dims except NA dims> ORDER BY <NA dims>) AS __sv_rnK
 *         FROM <grain's joins> WHERE <where_clause>) AS __sv_snapshot
 *   GROUP BY dims
 *
 * RANK (not ROW_NUMBER) so every row tied at the snapshot value counts. The declared direction is
 * reversed in the window so that rank 1 is the *last* value in the declared order (ASC, the default,
 * picks the latest snapshot); the NULLS placement is kept as declared. Every metric of that grain is
 * split into a per-row argument and an outer aggregate, so each must be a single
 * SUM/COUNT/AVG/MIN/MAX(<expression>) call.
 */
import type { MemberDef, MetricDef, NonAdditiveDim } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { significant } from "../sql/lexer.js";
import { findReferenced, refersTo } from "../sql/member-reference.js";
import { quoteIdent } from "../sql/quote.js";
import { closingParen, isKeyword, isPunct } from "../sql/tokens.js";
import type { ExpandContext } from "./context.js";
import { tokensOf } from "../sql/references.js";
import { keyOf } from "./join-graph.js";
import { dimColumn, metricColumn } from "./grains.js";
import { groupByLines, indented, selectLines } from "./sql-layout.js";

/** The metric's NON ADDITIVE BY entries, or an empty list. */
function nonAdditiveBy(m: MetricDef): readonly NonAdditiveDim[] {
  return m.nonAdditiveBy ?? [];
}

/** True when the metric takes snapshot selection for a query grouped by `queried`. */
export function isActiveSemiAdditive(m: MetricDef, queried: readonly MemberDef[]): boolean {
  return nonAdditiveBy(m).some((na) => !queried.some((d) => refersTo(na.dimension, d)));
}

/** NON ADDITIVE BY dimensions of an active metric that the query does not select (they must be joined). */
export function unqueriedSnapshotDims(
  def: { dimensions: readonly MemberDef[] },
  m: MetricDef,
  queried: readonly MemberDef[],
): MemberDef[] {
  if (!isActiveSemiAdditive(m, queried)) return [];
  const out: MemberDef[] = [];
  for (const na of nonAdditiveBy(m)) {
    if (queried.some((d) => refersTo(na.dimension, d))) continue;
    const dim = findReferenced(def.dimensions, na.dimension);
    if (dim !== undefined && !out.includes(dim)) out.push(dim);
  }
  return out;
}

/** A base metric computed in a snapshot grain, named `__sv_m<index>` in the grain's output. */
export interface SnapshotMetric {
  readonly metric: MetricDef;
  /** The metric's aggregate SQL as it would be emitted at this grain. */
  readonly sql: string;
  readonly index: number;
}

export interface SnapshotGrain {
  /** Queried dimensions: SQL and (already resolved) member, in output order. */
  readonly dims: readonly { readonly sql: string; readonly member: MemberDef }[];
  readonly metrics: readonly SnapshotMetric[];
  /** SQL of any dimension by name (queried or not), scoped like the grain's joins. */
  readonly dimensionSql: (dimension: MemberDef) => string;
  readonly viewDimensions: readonly MemberDef[];
}

/**
 * With grains joined after the snapshot, a role-played dimension would bind one role in the snapshot
 * grain and possibly another elsewhere; the extension refuses the pair, and so do we.
 */
export function checkSnapshotRoles(ctx: ExpandContext, dims: readonly MemberDef[]): void {
  const roleDim = dims.find((d) => ctx.graph.roleTables.has(keyOf(d.table)));
  if (roleDim === undefined) return;
  ctx.fail(
    `fan trap detected -- dimension '${roleDim.name}' is on role-playing table '${roleDim.table}', which cannot be scoped across the grains of a query with an active semi-additive metric; query the semi-additive metric with it at a single grain`,
  );
}

const SNAPSHOT_AGGREGATES = new Set(["sum", "count", "avg", "min", "max"]);

/** `FUNC(arg)` split into its function and argument, or the reason it cannot be. */
function decompose(sql: string): { fn: string; arg: string } | string {
  const tokens = significant(tokensOf(sql));
  const fn = tokens[0];
  if (fn === undefined || fn.kind !== "ident" || !isPunct(tokens[1], "("))
    return "it is not a single aggregate function call";
  if (!SNAPSHOT_AGGREGATES.has(fn.value.toLowerCase())) {
    return `aggregate function '${fn.value}' cannot be split for snapshot aggregation (supported: SUM, COUNT, AVG, MIN, MAX)`;
  }
  const close = closingParen(tokens, 1);
  if (close === undefined) return "unbalanced parentheses";
  if (close !== tokens.length - 1)
    return `expression text follows the aggregate call: '${sql.slice(tokens[close + 1]!.start).trim()}'`;
  if (close === 2) return "the aggregate call has no argument";
  const first = tokens[2]!;
  if (close === 3 && first.text === "*") return "star aggregates like COUNT(*) are not supported";
  if (isKeyword(first, "DISTINCT")) return "DISTINCT aggregates are not supported";
  return { fn: fn.text, arg: sql.slice(first.start, tokens[close - 1]!.end) };
}

/**
 * The grain's SQL: the snapshot rows from `rowSelect(items)` (which emits the grain's FROM, joins
 * and WHERE around the given select items, without GROUP BY), re-aggregated per queried dimension.
 * Output columns: the grain columns of grains.ts (`dimColumn(i)`, `metricColumn(index)`).
 */
export function snapshotGrainSql(
  view: string,
  grain: SnapshotGrain,
  rowSelect: (items: { sql: string; name: string }[]) => string,
): string {
  const queried = grain.dims.map((d) => d.member);
  const active = grain.metrics.filter((m) => isActiveSemiAdditive(m.metric, queried));
  const firstActive = active[0]?.metric.name ?? "";
  // One RANK column per distinct NON ADDITIVE BY list.
  const groups: { key: string; na: readonly NonAdditiveDim[] }[] = [];
  const groupOf = new Map<MetricDef, number>();
  for (const { metric } of active) {
    const key = nonAdditiveBy(metric)
      .map((na) => `${na.dimension.toLowerCase()} ${na.order} ${na.nulls}`)
      .join(",");
    let g = groups.findIndex((x) => x.key === key);
    if (g < 0) g = groups.push({ key, na: nonAdditiveBy(metric) }) - 1;
    groupOf.set(metric, g);
  }
  const items: { sql: string; name: string }[] = grain.dims.map((d, i) => ({ sql: d.sql, name: dimColumn(i) }));
  const outer: string[] = grain.dims.map((_, i) => quoteIdent(dimColumn(i)));
  for (const m of grain.metrics) {
    const parts = decompose(m.sql);
    const isActive = groupOf.has(m.metric);
    if (typeof parts === "string") {
      throw new SemanticViewError(
        "invalid",
        isActive
          ? `semantic view '${view}': semi-additive metric '${m.metric.name}' (expression: ${m.sql}) cannot be expanded: ${parts}. NON ADDITIVE BY snapshot expansion requires the metric to be a single aggregate call SUM/COUNT/AVG/MIN/MAX(<expression>) without '*' or DISTINCT.`
          : `semantic view '${view}': metric '${m.metric.name}' (expression: ${m.sql}) cannot be co-queried with semi-additive metric '${firstActive}': ${parts}. Snapshot expansion for NON ADDITIVE BY requires every co-queried metric to be a single aggregate call SUM/COUNT/AVG/MIN/MAX(<expression>) without '*', DISTINCT, or surrounding expression text. Query '${m.metric.name}' and '${firstActive}' separately.`,
      );
    }
    const arg = `__sv_a${m.index}`;
    items.push({ sql: parts.arg, name: arg });
    const value = isActive ? `CASE WHEN "__sv_rn${groupOf.get(m.metric)!}" = 1 THEN "${arg}" END` : `"${arg}"`;
    outer.push(`${parts.fn}(${value}) AS ${quoteIdent(metricColumn(m.index))}`);
  }
  groups.forEach((g, k) => {
    const partition = grain.dims.filter((d) => !g.na.some((na) => refersTo(na.dimension, d.member))).map((d) => d.sql);
    const order = g.na.map((na) => {
      const dim = findReferenced(grain.viewDimensions, na.dimension);
      if (dim === undefined)
        throw new SemanticViewError(
          "invalid",
          `semantic view '${view}': NON ADDITIVE BY dimension '${na.dimension}' is not a dimension of the view`,
        );
      // Reversed: rank 1 is the last value in the declared order.
      return `${grain.dimensionSql(dim)} ${na.order === "asc" ? "DESC" : "ASC"} NULLS ${na.nulls.toUpperCase()}`;
    });
    const over = `${partition.length > 0 ? `PARTITION BY ${partition.join(", ")} ` : ""}ORDER BY ${order.join(", ")}`;
    items.push({ sql: `RANK() OVER (${over})`, name: `__sv_rn${k}` });
  });
  return [
    ...selectLines(outer),
    "FROM (",
    indented(rowSelect(items)),
    `) AS ${quoteIdent("__sv_snapshot")}`,
    ...groupByLines(grain.dims.length),
  ].join("\n");
}

/**
 * A metric built over an active semi-additive metric (a derived metric, or a window metric's inner
 * metric) is refused, as in the extension: the snapshot answers the semi-additive metric itself, and
 * composing it with an outer expression is not defined.
 */
export function refuseSnapshotDependency(
  ctx: ExpandContext,
  metric: MetricDef,
  bases: readonly MetricDef[],
  dims: readonly MemberDef[],
): void {
  const semi = bases.find((b) => b !== metric && isActiveSemiAdditive(b, dims));
  if (semi === undefined) return;
  const na = (semi.nonAdditiveBy ?? []).map((d) => d.dimension).join(", ");
  ctx.fail(
    `metric '${metric.name}' depends on semi-additive metric '${semi.name}' (NON ADDITIVE BY ${na}), whose snapshot is taken in this query; a metric composed over a snapshot is not supported. Query '${semi.name}' directly, or include its NON ADDITIVE BY dimensions (${na}) in the query.`,
  );
}
