/** Lookups shared by the SHOW/DESCRIBE statements and the table functions. */
import { loadDefinition } from "../catalog.js";
import type { QualifiedName } from "../sql/parse-qualified-name.js";
import type { SemanticViewDefinition } from "../view-definition.js";
import type { SqlSession } from "../semantic-layer.js";
import { SemanticViewError } from "../semantic-error.js";
import { didYouMean } from "../../text/suggest.js";
import { findReferenced } from "../sql/member-reference.js";

/** Loads a view for introspection; a missing view is a not_found error. */
export async function requireDefinition(
  session: SqlSession,
  name: QualifiedName | string,
): Promise<SemanticViewDefinition> {
  const def = await loadDefinition(session, name);
  if (def === undefined) {
    const shown = typeof name === "string" ? name : name.name;
    throw new SemanticViewError("not_found", `semantic view '${shown.toLowerCase()}' does not exist`);
  }
  return def;
}

/** The metric argument of `..._for_metric`: must name a metric of the view. */
export function requireMetric(def: SemanticViewDefinition, value: string | boolean | undefined, fn: string): string {
  if (typeof value !== "string")
    throw new SemanticViewError("invalid", `${fn}() expects the metric name as its second argument`);
  // Bare, quoted or `alias.`-qualified, as the extension resolves a metric reference.
  const metric = findReferenced(def.metrics, value);
  if (metric === undefined) {
    const names = def.metrics.map((m) => m.name);
    throw new SemanticViewError(
      "invalid",
      `metric '${value}' not found in semantic view '${def.name}'.${didYouMean(value, names)}`,
    );
  }
  return metric.name;
}
