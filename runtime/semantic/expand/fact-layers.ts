/**
 * Shared facts (`MemberSql` in shared mode): a table whose facts are computed once replaces its
 * table reference by projections that add one column per fact, one projection per dependency level,
 * each aliased with the table's declared alias so the fact expressions read as written:
 *
 *   (SELECT *, "o"."__sv_f0" + "o"."__sv_f0" AS "__sv_f1"
 *    FROM (SELECT *, "o"."amount" AS "__sv_f0" FROM "db"."main"."orders" AS "o") AS "o")
 */
import { quoteIdent } from "../sql/quote.js";
import { lateralAlias, type LateralColumn, type LayerColumn } from "./members.js";

export function layeredTable(tableSql: string, alias: string, columns: readonly LayerColumn[] | undefined): string {
  if (columns === undefined || columns.length === 0) return tableSql;
  const name = quoteIdent(alias);
  const depth = Math.max(...columns.map((c) => c.level));
  let from = `${tableSql} AS ${name}`;
  for (let level = 0; level <= depth; level++) {
    const items = columns.filter((c) => c.level === level).map((c) => `${c.sql} AS ${quoteIdent(c.column)}`);
    from = `(SELECT *, ${items.join(", ")} FROM ${from})${level < depth ? ` AS ${name}` : ""}`;
  }
  return from;
}

/**
 * Cross-table facts: after the joins, one single-row lateral projection per dependency level,
 *
 *   CROSS JOIN LATERAL (SELECT "o"."__sv_f0" + "c"."w" AS "__sv_f1") AS "__sv_j0"
 *
 * computing each fact whose tables the SELECT joins (the others cannot be used by it). A projection
 * without FROM yields exactly one row, so the joined rows keep their number.
 */
export function lateralLines(
  columns: readonly LateralColumn[],
  joined: ReadonlySet<string>,
  scoped: (sql: string) => string,
): string[] {
  const usable = columns.filter((c) => c.tables.every((t) => joined.has(t)));
  const byLevel = new Map<number, LateralColumn[]>();
  for (const c of usable) byLevel.set(c.level, [...(byLevel.get(c.level) ?? []), c]);
  return [...byLevel.keys()]
    .sort((a, b) => a - b)
    .map((level) => {
      const items = byLevel.get(level)!.map((c) => `${scoped(c.sql)} AS ${quoteIdent(c.column)}`);
      return `CROSS JOIN LATERAL (SELECT ${items.join(", ")}) AS ${quoteIdent(lateralAlias(level))}`;
    });
}
