/**
 * Materialization routing: a request whose dimension set and metric set exactly equal those of a
 * declared materialization (case-insensitive, first match in declaration order) reads the
 * pre-aggregated table instead of expanding. Never routed: fact queries, requests with a
 * where_clause (the table holds no rows to filter), and requests with a semi-additive
 * (NON ADDITIVE BY) or window metric, whose results depend on the queried grain.
 */
import type { MemberDef, MetricDef, SemanticViewDefinition } from "../view-definition.js";
import { quoteIdent, splitTableReference } from "../sql/quote.js";
import type { ExpandedQuery, SemanticQueryRequest } from "./expand.js";
import { resolveMembers } from "./resolve.js";
import { selectLines } from "./sql-layout.js";

export interface RoutedQuery extends ExpandedQuery {
  /** The materialization the request was routed to. */
  readonly materialization: string;
}

/** Semi-additive and window metrics depend on the queried grain: a pre-aggregate cannot answer them. */
const grainDependent = (m: MetricDef): boolean => (m.nonAdditiveBy?.length ?? 0) > 0 || m.window !== undefined;

const lowerSet = (names: readonly string[]): Set<string> => new Set(names.map((n) => n.toLowerCase()));
const sameSet = (a: Set<string>, b: Set<string>): boolean => a.size === b.size && [...a].every((x) => b.has(x));

function column(m: MemberDef | MetricDef): string {
  const name = quoteIdent(m.name);
  return m.outputType === undefined ? name : `CAST(${name} AS ${m.outputType}) AS ${name}`;
}

/**
 * An unqualified materialization table resolves where the view's unqualified TABLES do (the
 * creating session's database and schema), so the routed query reads the same table from any
 * session; a qualified one is used as written.
 */
function qualifiedTable(def: SemanticViewDefinition, table: string): string {
  const parts = splitTableReference(table);
  const full = parts.length > 1 ? parts : [def.databaseName, def.resolutionSchemaName ?? def.schemaName, ...parts];
  return full.map(quoteIdent).join(".");
}

/** The routed query, or undefined when the request expands normally. */
export function routeToMaterialization(
  def: SemanticViewDefinition,
  request: SemanticQueryRequest,
): RoutedQuery | undefined {
  const materializations = def.materializations ?? [];
  if (materializations.length === 0 || request.facts.length > 0) return undefined;
  if (request.whereClause !== undefined && request.whereClause.trim() !== "") return undefined;
  let dims: MemberDef[];
  let metrics: MetricDef[];
  try {
    dims = resolveMembers<MemberDef>(def, "dimension", request.dimensions);
    metrics = resolveMembers<MetricDef>(def, "metric", request.metrics);
  } catch {
    return undefined; // the expansion reports the request's error
  }
  if (dims.length + metrics.length === 0 || metrics.some(grainDependent)) return undefined;
  const wantedDims = lowerSet(dims.map((d) => d.name));
  const wantedMetrics = lowerSet(metrics.map((m) => m.name));
  const hit = materializations.find(
    (m) => sameSet(lowerSet(m.dimensions), wantedDims) && sameSet(lowerSet(m.metrics), wantedMetrics),
  );
  if (hit === undefined) return undefined;
  const table = qualifiedTable(def, hit.table);
  // A dimensions-only request is SELECT DISTINCT when expanded; a routed one keeps that meaning.
  const sql = [...selectLines([...dims, ...metrics].map(column), metrics.length === 0), `FROM ${table}`].join("\n");
  return { sql, columns: [...dims, ...metrics].map((m) => m.name), materialization: hit.name };
}
