/**
 * Text forms of `NON ADDITIVE BY (...)` entries and window metric expressions, for get_ddl and the
 * DESCRIBE properties NON_ADDITIVE_BY / WINDOW_SPEC, as the extension renders them: dimension and
 * metric references as written (`o."order date"`), DESC when descending (ASC left out), and NULLS
 * always explicit.
 */
import type { NonAdditiveDim, WindowOrderBy, WindowSpec } from "../view-definition.js";
import { parseMemberReference } from "../sql/member-reference.js";
import { quoteIdent } from "../sql/quote.js";

/** A stored reference as written; one stored unquoted by an older version is quoted when it needs it. */
function reference(text: string): string {
  const ref = parseMemberReference(text);
  return ref.qualifier === undefined && ref.name === text.trim() && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(ref.name)
    ? quoteIdent(ref.name)
    : text;
}

function sortText(e: NonAdditiveDim | WindowOrderBy): string {
  return `${reference(e.dimension)}${e.order === "desc" ? " DESC" : ""} NULLS ${e.nulls.toUpperCase()}`;
}

/** `report_date DESC NULLS FIRST, period NULLS LAST` (without the parentheses). */
export function renderNonAdditiveBy(entries: readonly NonAdditiveDim[]): string {
  return entries.map(sortText).join(", ");
}

/** `AVG(total_qty) OVER (PARTITION BY EXCLUDING date ORDER BY date NULLS LAST)`. */
export function renderWindow(w: WindowSpec): string {
  const over: string[] = [];
  if (w.excludingDims.length > 0) over.push(`PARTITION BY EXCLUDING ${w.excludingDims.map(reference).join(", ")}`);
  else if (w.partitionDims.length > 0) over.push(`PARTITION BY ${w.partitionDims.map(reference).join(", ")}`);
  if (w.orderBy.length > 0) over.push(`ORDER BY ${w.orderBy.map(sortText).join(", ")}`);
  if (w.frame !== undefined) over.push(w.frame);
  return `${w.function}(${[reference(w.innerMetric), ...w.extraArgs].join(", ")}) OVER (${over.join(" ")})`;
}
