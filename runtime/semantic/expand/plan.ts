/**
 * The expansion plan: a `semantic_view()` request resolved against its definition — the members
 * asked for, the tables each one needs, the role-playing choices, the join trees, the fan-trap
 * verdict — and the shape of SQL that answers it (`mode`). The emitters (`emit-rows.ts`,
 * `emit-single-grain.ts`, `emit-grain-ctes.ts`) only turn a plan into text.
 */
import type { MemberDef, MetricDef, SemanticViewDefinition } from "../view-definition.js";
import { identEquals, quoteIdent } from "../sql/quote.js";
import { rewriteQualifiers } from "../sql/references.js";
import { ExpandContext, type Requirement } from "./context.js";
import { joinedTables, keySql, NO_FILTER, type RowFilter } from "./emit.js";
import { checkFanTraps } from "./fan-trap.js";
import { guardAggregates } from "./guard-aggregates.js";
import { firstFan, keyOf, type JoinTree } from "./join-graph.js";
import type { JoinLayout } from "./join-layout.js";
import { MemberSql, type MemberSharing } from "./members.js";
import { resolveMembers } from "./resolve.js";
import { RolePaths } from "./roles.js";
import { isActiveSemiAdditive, refuseSnapshotDependency, unqueriedSnapshotDims } from "./semi-additive.js";
import { whereSql } from "./where-clause.js";

export interface SemanticQueryRequest {
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  readonly facts: readonly string[];
  /** Pre-aggregation predicate over member names; blank means absent. */
  readonly whereClause?: string | undefined;
}

export interface ExpandedQuery {
  /** Plain DuckDB SQL. */
  readonly sql: string;
  /** Output column names: dimensions, then metrics or facts, in request order. */
  readonly columns: string[];
}

/** The requested members, found in the definition, in request order. */
export interface ResolvedRequest {
  readonly ctx: ExpandContext;
  readonly dims: readonly MemberDef[];
  readonly metrics: readonly MetricDef[];
  readonly facts: readonly MemberDef[];
  readonly columns: string[];
  readonly members: MemberSql;
}

export interface SelectItem {
  readonly sql: string;
  readonly name: string;
}

/**
 * How the answer is shaped: `rows` (no metrics: SELECT DISTINCT dimensions, or facts),
 * `single-grain` (every metric aggregates in one base-anchored SELECT), `grain-ctes` (one CTE per
 * metric table, joined on the dimensions).
 */
export type ExpansionMode = "rows" | "single-grain" | "grain-ctes";

export interface ExpansionPlan extends ResolvedRequest {
  readonly mode: ExpansionMode;
  /** Base metrics behind the requested metrics (derived ones inlined), first-seen order. */
  readonly bases: readonly MetricDef[];
  /** Tables the dimensions, facts and filter need. */
  readonly rowReqs: readonly Requirement[];
  /** Tables each base metric needs (with an active snapshot's unqueried NON ADDITIVE BY dimensions). */
  readonly metricReqs: ReadonlyMap<MetricDef, readonly Requirement[]>;
  /** Every table the query touches (the single-grain SELECT joins these). */
  readonly allTables: readonly string[];
  readonly dimItems: readonly SelectItem[];
  readonly factItems: readonly SelectItem[];
  /** The where_clause, scoped, as WHERE conditions, and the tables it names. */
  readonly filter: RowFilter;
  /** The SQL alias of a table key (a role-played table's alias depends on the USING choice). */
  readonly aliasOf: (key: string) => string;
  /** An expression with role-played qualifiers re-pointed at their scoped aliases. */
  readonly scoped: (sql: string) => string;
  /** The join tree anchored at a table (memoized). */
  readonly treeAt: (key: string) => JoinTree;
  /** A base metric's aggregate in a SELECT anchored at `anchor`; off the anchor it skips phantom rows. */
  readonly baseMetricSql: (b: MetricDef, anchor: string) => string;
}

/** Finds the requested members; rejects empty, mixed and duplicate requests. */
export function resolveRequest(
  def: SemanticViewDefinition,
  request: SemanticQueryRequest,
  sharing: MemberSharing = "inline",
  memberBudget = Number.POSITIVE_INFINITY,
  joins: JoinLayout = "tree",
): ResolvedRequest {
  const ctx = new ExpandContext(def, joins);
  if (request.facts.length > 0 && request.metrics.length > 0) {
    ctx.fail("cannot combine facts and metrics in the same query. Use facts := [...] OR metrics := [...], not both.");
  }
  const emptyRequest = (): never =>
    ctx.fail(
      `specify at least dimensions := [...], metrics := [...], or facts := [...].\nRun DESCRIBE SEMANTIC VIEW ${def.name} to see available dimensions, metrics, and facts.`,
    );
  if (request.dimensions.length === 0 && request.metrics.length === 0 && request.facts.length === 0) emptyRequest();
  const dims = resolveMembers<MemberDef>(def, "dimension", request.dimensions);
  const metrics = resolveMembers<MetricDef>(def, "metric", request.metrics);
  const facts = resolveMembers<MemberDef>(def, "fact", request.facts);
  const columns = [...dims, ...metrics, ...facts].map((m) => m.name);
  // Wildcards that expand to nothing leave an empty request, as in the extension.
  if (columns.length === 0) emptyRequest();
  const taken = new Set<string>();
  for (const c of columns) {
    if (taken.has(c.toLowerCase())) ctx.fail(`duplicate output column '${c}'`);
    taken.add(c.toLowerCase());
  }
  return { ctx, dims, metrics, facts, columns, members: new MemberSql(ctx, sharing, memberBudget) };
}

/** Plans an aggregate or row request (window metrics are planned by `window-metrics.ts`). */
export function planExpansion(resolved: ResolvedRequest, whereClause: string | undefined): ExpansionPlan {
  const { ctx, dims, metrics, facts, members } = resolved;
  const graph = ctx.graph;
  const dimSql = dims.map((d) => members.of(d));
  const factSql = facts.map((f) => members.of(f));
  const where = whereSql(ctx, members, whereClause);

  const bases: MetricDef[] = [];
  for (const m of metrics) for (const b of members.baseMetricsOf(m)) if (!bases.includes(b)) bases.push(b);
  for (const m of metrics) if (m.table === undefined) refuseSnapshotDependency(ctx, m, members.baseMetricsOf(m), dims);
  const roles = new RolePaths(ctx, members, metrics);

  const memberReqs = (m: MemberDef, label: string, subject?: string): Requirement[] =>
    requirementsOf(ctx, members.tablesOf(m.expr, m.table, [m]), label, subject);
  const rowReqs: Requirement[] = [
    ...dims.flatMap((d) => memberReqs(d, `dimension '${d.name}'`)),
    ...facts.flatMap((f) => memberReqs(f, `fact '${f.name}'`)),
    ...(where === undefined ? [] : where.tables.map((t) => ({ table: t, label: "where_clause" }))),
  ];
  const baseSql = new Map(bases.map((b) => [b, members.inlineFacts(b.expr, b.table!, [])]));
  const snapshotReqs = (b: MetricDef): Requirement[] =>
    unqueriedSnapshotDims(ctx.def, b, dims).flatMap((d) =>
      memberReqs(d, `dimension '${d.name}' (NON ADDITIVE BY of metric '${b.name}')`, `dimension '${d.name}'`),
    );
  const metricReqs = new Map(
    bases.map((b) => [
      b,
      [...requirementsOf(ctx, members.tablesOf(b.expr, b.table), `metric '${b.name}'`), ...snapshotReqs(b)],
    ]),
  );
  roles.check([...rowReqs, ...[...metricReqs.values()].flat()]);

  const aliasOf = (key: string): string => roles.aliasOf(key);
  // Without a role-played table no qualifier changes: skip tokenizing (inlined members can be tens of KB).
  const scoped = (sql: string): string =>
    graph.roleTables.size === 0
      ? sql
      : rewriteQualifiers(sql, (q) => {
          const k = keyOf(q);
          return graph.roleTables.has(k) && graph.tables.has(k) ? quoteIdent(aliasOf(k)) : undefined;
        });
  const trees = new Map<string, JoinTree>();
  const treeAt = (key: string): JoinTree => {
    let tree = trees.get(key);
    if (tree === undefined) trees.set(key, (tree = graph.tree(key, roles.choices)));
    return tree;
  };
  checkFanTraps(ctx, roles, treeAt, bases, rowReqs, metricReqs);

  const allTables = [...rowReqs.map((r) => r.table), ...bases.map((b) => keyOf(b.table!))];
  for (const reqs of metricReqs.values()) for (const r of reqs) allTables.push(r.table);

  const baseMetricSql = (b: MetricDef, anchor: string): string => {
    const tk = keyOf(b.table!);
    const sql = scoped(baseSql.get(b)!);
    if (tk === anchor) return sql;
    const key = keySql(ctx, tk, aliasOf(tk));
    if (key !== undefined) return guardAggregates(sql, key);
    if (/count\s*\(\s*\*\s*\)/i.test(sql)) {
      const alias = graph.table(tk).alias;
      ctx.fail(
        `metric '${b.name}' uses COUNT(*) on joined table '${alias}'. The generated LEFT JOIN produces one NULL-extended row per base-table row with no match in '${alias}', which COUNT(*) would count -- so the expansion rewrites COUNT(*) to COUNT(<primary key>) for non-base tables, but table '${alias}' has no PRIMARY KEY declared in the TABLES clause. Add PRIMARY KEY (cols) to '${alias}' or use an explicit column: COUNT(${alias}.<column>).`,
      );
    }
    return sql;
  };

  const plan = {
    ...resolved,
    bases,
    rowReqs,
    metricReqs,
    allTables,
    dimItems: dims.map((d, i) => ({ sql: scoped(dimSql[i]!), name: d.name })),
    factItems: facts.map((f, i) => ({ sql: scoped(factSql[i]!), name: f.name })),
    filter: where === undefined ? NO_FILTER : { conditions: [scoped(where.sql)], tables: where.tables },
    aliasOf,
    scoped,
    treeAt,
    baseMetricSql,
  };
  return { ...plan, mode: modeOf(plan) };
}

/**
 * A snapshot is taken at the semi-additive metric's own grain, never over a join that fans it; every
 * other metric shares the base-anchored SELECT when its table reaches every joined table without a
 * fanning step.
 */
function modeOf(plan: Omit<ExpansionPlan, "mode">): ExpansionMode {
  if (plan.metrics.length === 0) return "rows";
  const { ctx, bases, dims } = plan;
  if (bases.some((b) => isActiveSemiAdditive(b, dims))) return "grain-ctes";
  const joined = joinedTables(plan.treeAt(ctx.graph.baseKey), plan.allTables);
  const single = bases.every((b) => {
    const tree = plan.treeAt(keyOf(b.table!));
    return [...joined].every((t) => tree.depth.has(t) && firstFan(tree, t) === undefined);
  });
  return single ? "single-grain" : "grain-ctes";
}

/** The view tables among `aliases` (qualifiers of struct fields and the like are not tables). */
function requirementsOf(
  ctx: ExpandContext,
  aliases: readonly string[],
  label: string,
  subject?: string,
): Requirement[] {
  const out: Requirement[] = [];
  for (const alias of aliases) {
    const k = keyOf(alias);
    if (ctx.graph.tables.has(k) && !out.some((r) => r.table === k)) out.push({ table: k, label, subject });
  }
  return out;
}
