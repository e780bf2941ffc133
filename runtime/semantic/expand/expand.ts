/**
 * Expands a `semantic_view()` request into plain DuckDB SQL: resolve names, inline facts and
 * derived metrics, pick role-playing paths, fence fan traps, then emit either one base-anchored
 * SELECT or, when a metric lives at a coarser grain than the joined rows, one CTE per grain joined
 * NULL-safely on the dimension keys (grains.ts).
 */
import type { MemberDef, MetricDef, SemanticViewDefinition } from "../view-definition.js";
import { identEquals, quoteIdent } from "../sql/quote.js";
import { ExpandContext, type Requirement } from "./context.js";
import { emitSelect, joinedTables, keySql } from "./emit.js";
import { guardAggregates } from "./guard-aggregates.js";
import { qualifiersOf, rewriteQualifiers } from "../sql/references.js";
import { checkFactPaths, checkFanTraps } from "./fan-trap.js";
import { dimColumn, grainAlias, groupByGrain, joinGrains, metricColumn } from "./grains.js";
import { keyOf, type JoinTree } from "./join-graph.js";
import { MemberSql } from "./members.js";
import { resolveMembers } from "./resolve.js";
import { RolePaths } from "./roles.js";
import { checkSnapshotRoles, isActiveSemiAdditive, snapshotGrainSql, unqueriedSnapshotDims } from "./semi-additive.js";
import { whereSql } from "./where-clause.js";
import { expandWindowMetrics } from "./window-metrics.js";

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

export function expandSemanticQuery(def: SemanticViewDefinition, request: SemanticQueryRequest): ExpandedQuery {
  const ctx = new ExpandContext(def);
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
  const clash = columns.find((c, i) => columns.findIndex((d) => identEquals(c, d)) !== i);
  if (clash !== undefined) ctx.fail(`duplicate output column '${clash}'`);

  const members = new MemberSql(ctx);
  const windowed = expandWindowMetrics(
    def,
    { dims, metrics, whereClause: request.whereClause },
    {
      expandInner: expandSemanticQuery,
      baseMetricsOf: (m) => members.baseMetricsOf(m),
    },
  );
  if (windowed !== undefined) return { sql: windowed, columns };
  const graph = ctx.graph;
  const dimSql = dims.map((d) => members.of(d));
  const factSqlList = facts.map((f) => members.of(f));
  const where = whereSql(ctx, members, request.whereClause);

  // Base metrics behind every requested metric (derived ones inlined), and their USING choices.
  const bases: MetricDef[] = [];
  for (const m of metrics) for (const b of members.baseMetricsOf(m)) if (!bases.includes(b)) bases.push(b);
  const roles = new RolePaths(ctx, members, metrics);

  const rowReqs: Requirement[] = [
    ...dims.flatMap((d, i) => requirementsOf(ctx, d.table, dimSql[i]!, `dimension '${d.name}'`)),
    ...facts.flatMap((f, i) => requirementsOf(ctx, f.table, factSqlList[i]!, `fact '${f.name}'`)),
    ...(where === undefined ? [] : where.tables.map((t) => ({ table: t, label: "where_clause" }))),
  ];
  const baseSql = new Map(bases.map((b) => [b, members.inlineFacts(b.expr, b.table!, [])]));
  // An active semi-additive metric also needs the tables of its unqueried NON ADDITIVE BY dimensions.
  const snapshotReqs = (b: MetricDef): Requirement[] =>
    unqueriedSnapshotDims(def, b, dims).flatMap((d) =>
      requirementsOf(ctx, d.table, members.of(d), `dimension '${d.name}' (NON ADDITIVE BY of metric '${b.name}')`),
    );
  const metricReqs = new Map(
    bases.map((b) => [
      b,
      [...requirementsOf(ctx, b.table!, baseSql.get(b)!, `metric '${b.name}'`), ...snapshotReqs(b)],
    ]),
  );
  roles.check([...rowReqs, ...[...metricReqs.values()].flat()]);

  const aliasOf = (key: string): string => roles.aliasOf(key);
  const scoped = (sql: string): string =>
    rewriteQualifiers(sql, (q) => {
      const k = keyOf(q);
      return graph.roleTables.has(k) && graph.tables.has(k) ? quoteIdent(aliasOf(k)) : undefined;
    });
  const treeFrom = new Map<string, JoinTree>();
  const treeAt = (key: string): JoinTree => {
    let t = treeFrom.get(key);
    if (t === undefined) treeFrom.set(key, (t = graph.tree(key, roles.choices)));
    return t;
  };
  checkFanTraps(ctx, roles, treeAt, bases, rowReqs, metricReqs);

  const dimItems = dims.map((d, i) => ({ sql: scoped(dimSql[i]!), name: d.name }));
  const conditions = where === undefined ? [] : [`(${scoped(where.sql)})`];
  const base = graph.baseKey;

  if (metrics.length === 0) {
    // Row-level modes: SELECT DISTINCT dimensions, or facts (with optional dimensions).
    const items = [...dimItems, ...facts.map((f, i) => ({ sql: scoped(factSqlList[i]!), name: f.name }))];
    if (facts.length > 0)
      checkFactPaths(
        ctx,
        treeAt,
        rowReqs.map((r) => r.table),
      );
    const memberTables = new Set(rowReqs.filter((r) => r.label !== "where_clause").map((r) => r.table));
    const rowConditions = [...conditions];
    if (memberTables.size === 1) {
      // Phantom-row guard: members of one joined table only list rows that table really has.
      const only = [...memberTables][0]!;
      const key = only === base ? undefined : keySql(ctx, only, aliasOf(only));
      if (key !== undefined) rowConditions.push(`${key} IS NOT NULL`);
    }
    const sql = emitSelect(ctx, {
      tree: treeAt(base),
      aliasOf,
      items,
      needed: rowReqs.map((r) => r.table),
      conditions: rowConditions,
      distinct: facts.length === 0,
      groupCount: 0,
    });
    return { sql, columns };
  }

  // Can every metric be computed in one base-anchored SELECT?
  const baseTree = treeAt(base);
  const allTables = [...rowReqs.map((r) => r.table), ...bases.map((b) => keyOf(b.table!))];
  for (const reqs of metricReqs.values()) for (const r of reqs) allTables.push(r.table);
  const joined = joinedTables(ctx, baseTree, allTables);
  // A snapshot is taken at the semi-additive metric's own grain, never over a join that fans it.
  const snapshots = bases.some((b) => isActiveSemiAdditive(b, dims));
  const singleGrain =
    !snapshots &&
    bases.every((b) => {
      const tree = treeAt(keyOf(b.table!));
      return [...joined].every((t) => {
        const path = graph.path(tree, t);
        return path !== undefined && !path.some((s) => s.fans);
      });
    });

  /** A base metric's aggregate; on a LEFT-joined table its aggregates skip phantom rows. */
  const baseMetricSql = (b: MetricDef, anchor: string): string => {
    const tk = keyOf(b.table!);
    let sql = scoped(baseSql.get(b)!);
    if (tk !== anchor) {
      const key = keySql(ctx, tk, aliasOf(tk));
      if (key === undefined) {
        if (/count\s*\(\s*\*\s*\)/i.test(sql)) {
          const alias = graph.table(tk).alias;
          ctx.fail(
            `metric '${b.name}' uses COUNT(*) on joined table '${alias}'. The generated LEFT JOIN produces one NULL-extended row per base-table row with no match in '${alias}', which COUNT(*) would count -- so the expansion rewrites COUNT(*) to COUNT(<primary key>) for non-base tables, but table '${alias}' has no PRIMARY KEY declared in the TABLES clause. Add PRIMARY KEY (cols) to '${alias}' or use an explicit column: COUNT(${alias}.<column>).`,
          );
        }
      } else {
        sql = guardAggregates(sql, key);
      }
    }
    return sql;
  };

  if (singleGrain) {
    const items = [
      ...dimItems,
      ...metrics.map((m) => ({ sql: members.renderMetric(m, (b) => `(${baseMetricSql(b, base)})`), name: m.name })),
    ];
    const sql = emitSelect(ctx, {
      tree: baseTree,
      aliasOf,
      items,
      needed: allTables,
      conditions,
      distinct: false,
      groupCount: dims.length,
    });
    return { sql, columns };
  }

  // Per grain, only a queried dimension's expression is re-pointed at a role-played table's
  // scoped alias; a filter, fact or metric sitting on one stays an error, as in the extension.
  const roleBound = [
    ...rowReqs.filter((r) => !r.label.startsWith("dimension ")),
    ...bases.flatMap((b) => metricReqs.get(b)!),
  ].find((r) => graph.roleTables.has(r.table));
  if (roleBound !== undefined) {
    ctx.fail(
      `fan trap detected -- ${roleBound.label} uses role-playing table '${graph.table(roleBound.table).alias}', which a query over metrics at different grains cannot scope; query it with metrics at a single grain`,
    );
  }

  // One CTE per grain (metric table), each anchored at its own table.
  const grains = groupByGrain(bases, (b) => keyOf(b.table!));
  if (snapshots && grains.length > 1) checkSnapshotRoles(ctx, dims);
  const baseIndex = new Map(bases.map((b, i) => [b, i]));
  const grainOf = new Map<MetricDef, number>();
  const ctes = grains.map((g, gi) => {
    for (const b of g.bases) grainOf.set(b, gi);
    const items = [
      ...dimItems.map((d, i) => ({ sql: d.sql, name: dimColumn(i) })),
      ...g.bases.map((b) => ({ sql: baseMetricSql(b, g.anchor), name: metricColumn(baseIndex.get(b)!) })),
    ];
    const needed = [
      g.anchor,
      ...rowReqs.map((r) => r.table),
      ...g.bases.flatMap((b) => metricReqs.get(b)!.map((r) => r.table)),
    ];
    if (g.bases.some((b) => isActiveSemiAdditive(b, dims))) {
      const grain = {
        dims: dims.map((d, i) => ({ sql: dimItems[i]!.sql, member: d })),
        metrics: g.bases.map((b) => ({ metric: b, sql: baseMetricSql(b, g.anchor), index: baseIndex.get(b)! })),
        dimensionSql: (d: MemberDef) => scoped(members.of(d)),
        viewDimensions: def.dimensions,
      };
      const rows = (snapshotItems: { sql: string; name: string }[]): string =>
        emitSelect(ctx, {
          tree: treeAt(g.anchor),
          aliasOf,
          items: snapshotItems,
          needed,
          conditions,
          distinct: false,
          groupCount: 0,
        });
      return snapshotGrainSql(def.name, grain, rows);
    }
    return emitSelect(ctx, {
      tree: treeAt(g.anchor),
      aliasOf,
      items,
      needed,
      conditions,
      distinct: false,
      groupCount: dims.length,
    });
  });
  const cell = (b: MetricDef): string =>
    `${grainAlias(grainOf.get(b)!)}.${quoteIdent(metricColumn(baseIndex.get(b)!))}`;
  const sql = joinGrains({
    ctes,
    dimNames: dims.map((d) => d.name),
    metricItems: metrics.map((m) => ({ name: m.name, sql: members.renderMetric(m, cell) })),
  });
  return { sql, columns };
}

/** Tables an expression needs: its owner plus every table alias it qualifies columns with. */
function requirementsOf(ctx: ExpandContext, owner: string | undefined, sql: string, label: string): Requirement[] {
  const out: Requirement[] = [];
  const add = (alias: string): void => {
    const k = keyOf(alias);
    if (ctx.graph.tables.has(k) && !out.some((r) => r.table === k)) out.push({ table: k, label });
  };
  if (owner !== undefined) add(owner);
  for (const q of qualifiersOf(sql)) add(q);
  return out;
}
