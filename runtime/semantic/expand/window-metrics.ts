/**
 * Window metrics (`FUNC(inner_metric[, args]) OVER (...)`): the inner metrics are aggregated by
 * every queried dimension first (the ordinary expansion, so grains, fan traps, role-playing,
 * snapshots and where_clause all apply), then the window function runs over those grouped rows:
 *
 *   WITH __sv_agg AS (<inner metrics by the queried dimensions>)
 *   SELECT dims, FUNC("inner", args) OVER (PARTITION BY ... ORDER BY ... frame) AS "m" FROM __sv_agg
 *
 * `PARTITION BY EXCLUDING d` partitions by every queried dimension except `d`; plain `PARTITION BY`
 * is the fixed list. Every dimension the OVER clause names must be queried, and window metrics are
 * not mixed with aggregate metrics in one query (the two have different row shapes).
 */
import type { MemberDef, MetricDef, SemanticViewDefinition, WindowSpec } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { findReferenced, parseMemberReference, refersTo } from "../sql/member-reference.js";
import { quoteIdent } from "../sql/quote.js";
import { ExpandContext } from "./context.js";
import { refuseSnapshotDependency } from "./semi-additive.js";
import { selectLines, withCtes } from "./sql-layout.js";

export interface InnerRequest {
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  readonly facts: readonly string[];
  readonly whereClause?: string | undefined;
}

export interface WindowHelpers {
  /** The ordinary expansion, used for the inner metrics. */
  readonly expandInner: (def: SemanticViewDefinition, request: InnerRequest) => { sql: string };
  /** The base metrics a metric is computed from (derived metrics inlined). */
  readonly baseMetricsOf: (m: MetricDef) => MetricDef[];
}

/** A qualified request name for a member (quoted, so any spelling resolves to exactly it). */
const requestName = (m: { table?: string | undefined; name: string }): string =>
  m.table === undefined ? quoteIdent(m.name) : `${quoteIdent(m.table)}.${quoteIdent(m.name)}`;

/** Dimensions an OVER clause needs in the query, with the clause that uses each. */
export function requiredWindowDimensions(spec: WindowSpec): { dimension: string; usedIn: string }[] {
  return [
    ...spec.excludingDims.map((dimension) => ({ dimension, usedIn: "PARTITION BY EXCLUDING" })),
    ...spec.partitionDims.map((dimension) => ({ dimension, usedIn: "PARTITION BY" })),
    ...spec.orderBy.map((o) => ({ dimension: o.dimension, usedIn: "ORDER BY" })),
  ];
}

/** Returns the SQL for a request whose metrics are window metrics, or undefined when none is. */
export function expandWindowMetrics(
  def: SemanticViewDefinition,
  request: {
    readonly dims: readonly MemberDef[];
    readonly metrics: readonly MetricDef[];
    readonly whereClause?: string | undefined;
  },
  helpers: WindowHelpers,
): string | undefined {
  const { dims, metrics, whereClause } = request;
  const windowed = metrics.filter((m) => m.window !== undefined);
  if (windowed.length === 0) return undefined;
  const fail = (message: string): never => {
    throw new SemanticViewError("invalid", `semantic view '${def.name}': ${message}`);
  };
  if (windowed.length < metrics.length) {
    const aggregates = metrics.filter((m) => m.window === undefined).map((m) => m.name);
    fail(
      `cannot mix window function metrics [${windowed.map((m) => m.name).join(", ")}] with aggregate metrics [${aggregates.join(", ")}] in the same query`,
    );
  }
  const queried = (reference: string): MemberDef | undefined => findReferenced(dims, reference);
  const inner: MetricDef[] = [];
  for (const m of windowed) {
    const spec = m.window!;
    for (const { dimension, usedIn } of requiredWindowDimensions(spec)) {
      if (queried(dimension) === undefined) {
        fail(
          `window function metric '${m.name}' requires dimension '${dimension}' to be included in the query (used in ${usedIn})`,
        );
      }
    }
    const target = findReferenced(def.metrics, spec.innerMetric);
    if (target === undefined)
      fail(`window metric '${m.name}': inner metric '${spec.innerMetric}' not found in semantic view metrics`);
    if (target!.window !== undefined) {
      fail(
        `window metric '${m.name}': inner metric '${target!.name}' is itself a window metric; the inner metric must be a base or derived metric`,
      );
    }
    refuseSnapshotDependency(new ExpandContext(def), m, helpers.baseMetricsOf(target!), dims);
    if (!inner.includes(target!)) inner.push(target!);
  }
  // The window runs over one grouped relation: inner aggregates at different grains would have to be
  // joined first, which the extension refuses (as a fan trap).
  const grainTables = new Map<string, MetricDef>();
  for (const m of inner)
    for (const b of helpers.baseMetricsOf(m))
      if (!grainTables.has(b.table!.toLowerCase())) grainTables.set(b.table!.toLowerCase(), b);
  if (grainTables.size > 1) {
    const [a, b] = [...grainTables.values()];
    fail(
      `fan trap detected -- window metrics [${windowed.map((m) => m.name).join(", ")}] wrap aggregates at different grains (metric '${a!.name}' on table '${a!.table}', metric '${b!.name}' on table '${b!.table}'); query them separately`,
    );
  }
  // Inner metrics may be PRIVATE: they are computed here, not returned.
  const innerDef: SemanticViewDefinition = {
    ...def,
    metrics: def.metrics.map((x) => (inner.includes(x) && x.access === "private" ? { ...x, access: "public" } : x)),
  };
  const aggregated = helpers.expandInner(innerDef, {
    dimensions: dims.map(requestName),
    metrics: inner.map(requestName),
    facts: [],
    whereClause,
  });
  const items = [
    ...dims.map((d) => `${quoteIdent(d.name)} AS ${quoteIdent(d.name)}`),
    ...windowed.map((m) => `${windowCall(m.window!, dims, inner)} AS ${quoteIdent(m.name)}`),
  ];
  return withCtes([{ name: "__sv_agg", body: aggregated.sql }], [...selectLines(items), "FROM __sv_agg"].join("\n"));
}

/** `FUNC("inner", args) OVER (...)` over the `__sv_agg` columns (named after the members). */
function windowCall(spec: WindowSpec, dims: readonly MemberDef[], inner: readonly MetricDef[]): string {
  const column = (reference: string, pool: readonly { name: string; table?: string | undefined }[]): string =>
    quoteIdent(findReferenced(pool, reference)?.name ?? parseMemberReference(reference).name);
  const args = [column(spec.innerMetric, inner), ...spec.extraArgs];
  const partition =
    spec.partitionDims.length > 0
      ? spec.partitionDims.map((d) => column(d, dims))
      : dims.filter((d) => !spec.excludingDims.some((x) => refersTo(x, d))).map((d) => quoteIdent(d.name));
  const over: string[] = [];
  if (partition.length > 0) over.push(`PARTITION BY ${partition.join(", ")}`);
  if (spec.orderBy.length > 0) {
    over.push(
      `ORDER BY ${spec.orderBy.map((o) => `${column(o.dimension, dims)} ${o.order.toUpperCase()} NULLS ${o.nulls.toUpperCase()}`).join(", ")}`,
    );
  }
  if (spec.frame !== undefined) over.push(spec.frame);
  return `${spec.function}(${args.join(", ")}) OVER (${over.join(" ")})`;
}
