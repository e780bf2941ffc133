/**
 * CREATE-time rules for MATERIALIZATIONS: names unique (case-insensitively), every listed
 * dimension and metric declared in the view (with a "did you mean"). The table is not checked: the
 * extension resolves it only when a query routes to it.
 */
import type { MaterializationDef, MemberDef, MetricDef } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { didYouMean } from "../../text/suggest.js";
import type { DraftMaterialization } from "./statements.js";
import { parseError } from "../sql/token-stream.js";

export function validateMaterializations(
  drafts: readonly DraftMaterialization[],
  model: { readonly dimensions: readonly MemberDef[]; readonly metrics: readonly MetricDef[] },
  sql: string,
): MaterializationDef[] {
  const fail = (message: string, position: number): never => {
    throw position < 0 ? new SemanticViewError("invalid", message) : parseError(sql, message, position, "invalid");
  };
  const seen = new Set<string>();
  const check = (
    m: DraftMaterialization,
    kind: "dimension" | "metric",
    names: readonly string[],
    declared: readonly string[],
  ): void => {
    for (const name of names) {
      if (declared.some((d) => d.toLowerCase() === name.toLowerCase())) continue;
      fail(
        `Materialization '${m.name}': ${kind} '${name}' not found in semantic view ${kind}s.${didYouMean(name, declared)}`,
        m.position,
      );
    }
  };
  return drafts.map((m) => {
    if (seen.has(m.name.toLowerCase())) fail(`Duplicate materialization name '${m.name}'`, m.position);
    seen.add(m.name.toLowerCase());
    check(
      m,
      "dimension",
      m.dimensions,
      model.dimensions.map((d) => d.name),
    );
    check(
      m,
      "metric",
      m.metrics,
      model.metrics.map((x) => x.name),
    );
    return { name: m.name, table: m.table, dimensions: [...m.dimensions], metrics: [...m.metrics] };
  });
}
