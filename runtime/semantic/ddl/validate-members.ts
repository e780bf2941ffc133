/**
 * Facts and dimensions: unique names across member kinds, row-level expressions only, and the
 * column-scope rule every member expression follows.
 */
import type { MemberDef } from "../view-definition.js";
import { didYouMean } from "../../text/suggest.js";
import { analyzeExpression, type NameRef } from "./expression-refs.js";
import type { DraftMember } from "./statements.js";
import { lower, type ValidationContext } from "./validate-context.js";

/** Indexes every member by name (unique across kinds) and analyses its expression. */
export function collectMembers(ctx: ValidationContext): void {
  for (const m of [...ctx.stmt.facts, ...ctx.stmt.dimensions, ...ctx.stmt.metrics]) {
    const existing = ctx.members.get(lower(m.name));
    if (existing !== undefined) {
      // The extension's v0.12 wording, then its older per-kind phrases.
      const older =
        existing.kind === m.kind
          ? `duplicate ${m.kind} name '${m.name}'`
          : `name '${m.name}' is used as both a ${existing.kind} and a ${m.kind}`;
      ctx.fail(
        `duplicate name '${m.name}': ${m.kind} '${m.name}' collides with ${existing.kind} '${existing.name}' -- dimension, metric, and fact names share one namespace and are case-insensitive (${older})`,
        m.position,
      );
    }
    ctx.members.set(lower(m.name), m);
    if (m.table !== undefined) ctx.requireAlias(m.table, `${m.kind} '${m.name}'`, m.position);
    ctx.analyses.set(m, analyzeExpression(m.expr));
  }
}

/**
 * Column-scope rule for row-level and base-metric expressions: `alias.x` must be a column of the
 * member's own table or a fact/dimension (or, for metrics, a metric); another table's columns are
 * reachable only through facts defined there.
 */
export function checkScope(
  ctx: ValidationContext,
  m: DraftMember,
  refs: readonly NameRef[],
  allowMetricRefs: boolean,
): void {
  const own = m.table!;
  const kinds: DraftMember["kind"][] = allowMetricRefs ? ["fact", "dimension", "metric"] : ["fact", "dimension"];
  for (const ref of refs) {
    const at = m.exprPosition < 0 ? -1 : m.exprPosition + ref.position;
    if (!allowMetricRefs) {
      // Row-level members cannot use metrics (unless the name is also a column of the table).
      const metric =
        ref.qualifier === undefined
          ? ctx.members.get(lower(ref.name))
          : ctx.memberOn(ref.qualifier, ref.name, ["metric"]);
      const column = ctx.hasColumn(ref.qualifier ?? own, ref.name) === true;
      if (
        metric?.kind === "metric" &&
        !column &&
        (ref.qualifier === undefined || ctx.tableByAlias.has(lower(ref.qualifier)))
      ) {
        ctx.fail(
          `${ctx.label(m)} references metric '${metric.name}'; ${m.kind}s are row-level expressions and cannot use metrics`,
          at,
        );
      }
    }
    if (ref.qualifier !== undefined) {
      const target = ctx.tableByAlias.get(lower(ref.qualifier));
      if (target === undefined) continue; // struct field access or a fully qualified name: left to DuckDB
      if (lower(target.alias) === lower(own)) {
        if (ctx.hasColumn(own, ref.name) === false && ctx.memberOn(own, ref.name, kinds) === undefined) {
          const candidates = [
            ...(ctx.columnsOf(own) ?? []),
            ...ctx.stmt.facts.filter((f) => lower(f.table!) === lower(own)).map((f) => f.name),
          ];
          ctx.fail(
            `${ctx.label(m)} references unknown column '${ref.qualifier}.${ref.name}'.${didYouMean(ref.name, candidates)}`,
            at,
          );
        }
        continue;
      }
      // Across tables only facts (and, from a metric, metrics) are reachable.
      if (ctx.memberOn(target.alias, ref.name, allowMetricRefs ? ["fact", "metric"] : ["fact"]) !== undefined) continue;
      ctx.fail(crossTable(m, `${ref.qualifier}.${ref.name}`, target.alias), at);
    } else {
      if (ctx.hasColumn(own, ref.name) !== false) continue; // own column, or unknown table
      const member = ctx.members.get(lower(ref.name));
      if (member !== undefined) {
        if (member.kind === "fact" || (allowMetricRefs && member.kind === "metric")) continue;
        if (member.kind === "dimension" && member.table !== undefined && lower(member.table) === lower(own)) continue;
      }
      const other = ctx.stmt.tables.find(
        (t) => lower(t.alias) !== lower(own) && ctx.hasColumn(t.alias, ref.name) === true,
      );
      if (other !== undefined) {
        ctx.fail(crossTable(m, ref.name, other.alias), at);
      }
      // Otherwise: most likely a keyword or an identifier DuckDB will resolve; left to the query.
    }
  }
}

/** The extension's message for an expression naming another table's raw column. */
function crossTable(m: DraftMember, written: string, table: string): string {
  return `semantic view: ${m.kind} '${m.name}' references '${written}', a column of table '${table}', but a ${m.kind} expression may only reference columns of its own table ('${m.table!}'). To use a value from another table, define a FACT on that table and reference the fact by name (e.g. '${table}.<fact_name>').`;
}

/** Facts and dimensions are row-level: no aggregates, no window functions. */
function rowLevel(ctx: ValidationContext, m: DraftMember): void {
  const info = ctx.analyses.get(m)!;
  const plural = m.kind === "fact" ? "facts" : "dimensions";
  if (info.aggregates.length > 0) {
    const fn = info.aggregates[0]!;
    ctx.fail(
      m.kind === "fact"
        ? `Fact '${m.name}' contains aggregate function '${fn}'. Facts must be row-level expressions. Move aggregation to METRICS.`
        : `Dimension '${m.name}' contains aggregate function '${fn}'. Dimensions must be row-level expressions. Move aggregation to METRICS.`,
      m.exprPosition,
    );
  }
  if (info.hasWindow)
    ctx.fail(`${m.kind} '${m.name}' uses a window function; ${plural} are row-level expressions`, m.exprPosition);
  checkScope(ctx, m, info.refs, false);
}

export function validateFact(ctx: ValidationContext, m: DraftMember): MemberDef {
  rowLevel(ctx, m);
  return {
    name: m.name,
    written: m.written,
    table: m.table!,
    expr: m.expr,
    access: m.access ?? "public",
    comment: m.comment,
    synonyms: [...m.synonyms],
    isFilter: m.isFilter || undefined,
  };
}

export function validateDimension(ctx: ValidationContext, m: DraftMember): MemberDef {
  rowLevel(ctx, m);
  return {
    name: m.name,
    written: m.written,
    table: m.table!,
    expr: m.expr,
    access: "public",
    comment: m.comment,
    synonyms: [...m.synonyms],
    isFilter: m.isFilter || undefined,
  };
}
