/**
 * Text forms of `NON ADDITIVE BY (...)` entries and window metric expressions, for get_ddl and the
 * DESCRIBE properties NON_ADDITIVE_BY / WINDOW_SPEC. Defaults are left out (ASC; NULLS LAST, or
 * NULLS FIRST after DESC in NON ADDITIVE BY), so the text parses back to the same entries.
 */
import type { NonAdditiveDim, WindowOrderBy, WindowSpec } from "../view-definition.js";

type Ident = (name: string) => string;

function sortText(e: NonAdditiveDim | WindowOrderBy, defaultNulls: "first" | "last"): string {
  return `${e.order === "desc" ? " DESC" : ""}${e.nulls === defaultNulls ? "" : ` NULLS ${e.nulls.toUpperCase()}`}`;
}

/** `report_date DESC, period NULLS FIRST` (without the parentheses). */
export function renderNonAdditiveBy(entries: readonly NonAdditiveDim[], ident: Ident): string {
  return entries.map((e) => `${ident(e.dimension)}${sortText(e, e.order === "desc" ? "first" : "last")}`).join(", ");
}

/** `AVG(total_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date)`. */
export function renderWindow(w: WindowSpec, ident: Ident): string {
  const over: string[] = [];
  if (w.excludingDims.length > 0) over.push(`PARTITION BY EXCLUDING ${w.excludingDims.map(ident).join(", ")}`);
  if (w.partitionDims.length > 0) over.push(`PARTITION BY ${w.partitionDims.map(ident).join(", ")}`);
  if (w.orderBy.length > 0)
    over.push(`ORDER BY ${w.orderBy.map((o) => `${ident(o.dimension)}${sortText(o, "last")}`).join(", ")}`);
  if (w.frame !== undefined) over.push(w.frame);
  return `${w.function}(${[ident(w.innerMetric), ...w.extraArgs].join(", ")}) OVER (${over.join(" ")})`;
}
