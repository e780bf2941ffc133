/**
 * Shared derived metrics: instead of copying each metric's expression into every metric that uses
 * it, the grouped query (`core`: the dimensions under their names, each base metric as a column)
 * is wrapped in one projection per dependency level, each computing the derived metrics of that
 * level from the columns below. The text then grows with the number of metrics, not with the
 * number of paths through them (the levels are not indented: nested indentation would grow with the
 * square of the depth).
 */
import type { MetricDef } from "../view-definition.js";
import { quoteIdent } from "../sql/quote.js";
import { rewriteReferences } from "../sql/references.js";
import type { MemberSql } from "./members.js";
import { selectLines } from "./sql-layout.js";

export const baseColumn = (i: number): string => `__sv_b${i}`;

export function layerDerivedMetrics(opts: {
  readonly core: string;
  readonly dimNames: readonly string[];
  readonly metrics: readonly MetricDef[];
  readonly bases: readonly MetricDef[];
  readonly members: MemberSql;
}): string {
  const { members, bases } = opts;
  const derived = new Map<MetricDef, { column: string; level: number; sql: string }>();
  const columnOf = (m: MetricDef): string =>
    m.table !== undefined ? quoteIdent(baseColumn(bases.indexOf(m))) : `(${quoteIdent(visit(m).column)})`;
  // Depth-first over the dependencies; cycles were refused by baseMetricsOf.
  const visit = (m: MetricDef): { column: string; level: number; sql: string } => {
    const known = derived.get(m);
    if (known !== undefined) return known;
    let level = 1;
    for (const dep of members.metricDeps(m)) if (dep.table === undefined) level = Math.max(level, visit(dep).level + 1);
    const sql = rewriteReferences(m.expr, (ref) => {
      const dep = members.metricRef(ref.qualifier, ref.name);
      return dep === undefined ? undefined : columnOf(dep);
    });
    const entry = { column: `__sv_x${derived.size}`, level, sql };
    derived.set(m, entry);
    return entry;
  };
  for (const m of opts.metrics) if (m.table === undefined) visit(m);
  const depth = Math.max(0, ...[...derived.values()].map((d) => d.level));
  let from = opts.core;
  for (let level = 1; level <= depth; level++) {
    const items = [...derived.values()]
      .filter((d) => d.level === level)
      .map((d) => `${d.sql} AS ${quoteIdent(d.column)}`);
    from = [...selectLines(["*", ...items]), "FROM (", from, `) AS __sv_level${level - 1}`].join("\n");
  }
  const items = [
    ...opts.dimNames.map((d) => quoteIdent(d)),
    ...opts.metrics.map((m) => `${columnOf(m)} AS ${quoteIdent(m.name)}`),
  ];
  return [...selectLines(items), "FROM (", from, `) AS __sv_level${depth}`].join("\n");
}
