/**
 * Per-grain assembly: when a metric lives at a coarser grain than the joined rows, each metric
 * table gets its own CTE anchored at that table, and the CTEs are FULL OUTER JOINed NULL-safely on
 * the dimension values (CROSS JOINed when there are no dimensions).
 */
import type { MetricDef } from "../view-definition.js";
import { quoteIdent } from "../sql/quote.js";
import { onLine, selectLines, withCtes } from "./sql-layout.js";

export interface Grain {
  /** Key of the table the grain's CTE is anchored at. */
  readonly anchor: string;
  readonly bases: MetricDef[];
}

/** Groups base metrics by their table, in first-seen order. */
export function groupByGrain(bases: readonly MetricDef[], keyOfMetric: (b: MetricDef) => string): Grain[] {
  const grains: Grain[] = [];
  for (const b of bases) {
    const anchor = keyOfMetric(b);
    const g = grains.find((x) => x.anchor === anchor);
    if (g === undefined) grains.push({ anchor, bases: [b] });
    else g.bases.push(b);
  }
  return grains;
}

/** Column names inside the grain CTEs. */
export const dimColumn = (i: number): string => `__sv_d${i}`;
export const metricColumn = (i: number): string => `__sv_m${i}`;
export const grainAlias = (i: number): string => `__sv_g${i}`;

/**
 * The outer query over the grain CTEs. `metricSql` renders each requested metric from
 * `cell(b)`, the column holding base metric `b`.
 */
export function joinGrains(opts: {
  readonly ctes: readonly string[];
  readonly dimNames: readonly string[];
  readonly metricItems: readonly { name: string; sql: string }[];
}): string {
  const { ctes, dimNames } = opts;
  const g = grainAlias;
  const col = (gi: number, i: number): string => `${g(gi)}.${quoteIdent(dimColumn(i))}`;
  const coalesced = (upTo: number, i: number): string =>
    upTo === 1 ? col(0, i) : `COALESCE(${Array.from({ length: upTo }, (_, gi) => col(gi, i)).join(", ")})`;
  const selectList = [
    ...dimNames.map((d, i) => `${coalesced(ctes.length, i)} AS ${quoteIdent(d)}`),
    ...opts.metricItems.map((m) => `${m.sql} AS ${quoteIdent(m.name)}`),
  ];
  const lines = [...selectLines(selectList), `FROM __sv_grain_0 AS ${g(0)}`];
  for (let gi = 1; gi < ctes.length; gi++) {
    if (dimNames.length === 0) {
      lines.push(`CROSS JOIN __sv_grain_${gi} AS ${g(gi)}`);
      continue;
    }
    const on = dimNames.map((_, i) => `${coalesced(gi, i)} IS NOT DISTINCT FROM ${col(gi, i)}`);
    lines.push(`FULL OUTER JOIN __sv_grain_${gi} AS ${g(gi)}`, onLine(on.join(" AND ")));
  }
  return withCtes(
    ctes.map((body, i) => ({ name: `__sv_grain_${i}`, body })),
    lines.join("\n"),
  );
}
