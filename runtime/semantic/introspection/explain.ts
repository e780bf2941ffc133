/**
 * `explain_semantic_view('v', dimensions := [...], metrics := [...], facts := [...], where_clause := '...')`:
 * the same parameters as `semantic_view()`, answered with one VARCHAR column `explain_output`,
 * one row per line: a header (view, members, routing decision), the expanded SQL in the extension's
 * layout, and DuckDB's plan for the SQL `semantic_view()` runs. The data query itself is not run.
 */
import { expandSemanticQuery } from "../expand/expand.js";
import { routeToMaterialization } from "../expand/materialization.js";
import { shownName, type MemberDef, type MetricDef } from "../view-definition.js";
import { parseSemanticViewArguments } from "../call/call-arguments.js";
import { resolveMembers } from "../expand/resolve.js";
import type { SqlSession } from "../semantic-layer.js";
import type { Token } from "../sql/lexer.js";
import { requireDefinition } from "./lookup.js";
import type { Relation } from "./tables.js";

export const EXPLAIN_COLUMNS = ["explain_output"] as const;

/** `args` are the significant tokens between the call's parentheses. */
export async function explainSemanticView(session: SqlSession, args: readonly Token[]): Promise<Relation> {
  const { view, request } = parseSemanticViewArguments(args);
  const def = await requireDefinition(session, view);
  const routed = routeToMaterialization(def, request);
  // The extension's layout (LEFT JOINs chained) is printed; the plan is of the SQL semantic_view()
  // runs, whose joins are nested (same answer, see expand/join-layout.ts).
  const expanded = routed ?? expandSemanticQuery(def, request, { joins: "chain" });
  const executed = routed ?? expandSemanticQuery(def, request);
  // As the extension prints them: explicit names as requested, `alias.*` expanded to the declared names.
  const names = (kind: "dimension" | "metric" | "fact", requested: readonly string[]): string => {
    const out: string[] = [];
    for (const raw of requested) {
      if (!/\.\s*\*\s*$/.test(raw)) out.push(raw.trim());
      else for (const m of resolveMembers<MemberDef | MetricDef>(def, kind, [raw])) out.push(shownName(m));
    }
    return out.join(", ");
  };
  const lines = [
    `-- Semantic View: ${def.name}`,
    `-- Dimensions: ${names("dimension", request.dimensions)}`,
    `-- Metrics: ${names("metric", request.metrics)}`,
  ];
  if (request.facts.length > 0) lines.push(`-- Facts: ${names("fact", request.facts)}`);
  lines.push(
    `-- Materialization: ${routed?.materialization ?? "none"}`,
    "",
    "-- Expanded SQL:",
    ...expanded.sql.split("\n"),
  );
  lines.push("", "-- DuckDB Plan:", ...(await planLines(session, executed.sql)));
  return { columns: [...EXPLAIN_COLUMNS], rows: lines.map((line) => [line]) };
}

/** Every non-empty cell of `EXPLAIN <sql>`, split into lines; a failure becomes one comment line. */
async function planLines(session: SqlSession, sql: string): Promise<string[]> {
  try {
    const { rows } = await session.query(`EXPLAIN ${sql}`);
    return rows.flatMap((row) =>
      row.flatMap((cell) => (cell === null || cell === undefined || cell === "" ? [] : String(cell).split("\n"))),
    );
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return [`-- (not available -- ${detail})`];
  }
}
