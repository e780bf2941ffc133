/**
 * Shared facts (`MemberSql` in shared mode): a table whose facts are computed once replaces its
 * table reference by projections that add one column per fact, one projection per dependency level,
 * each aliased with the table's declared alias so the fact expressions read as written:
 *
 *   (SELECT *, "o"."__sv_f0" + "o"."__sv_f0" AS "__sv_f1"
 *    FROM (SELECT *, "o"."amount" AS "__sv_f0" FROM "db"."main"."orders" AS "o") AS "o")
 */
import { quoteIdent } from "../sql/quote.js";
import type { LayerColumn } from "./members.js";

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
