/**
 * Expands a `semantic_view()` request into plain DuckDB SQL: resolve names, inline facts and
 * derived metrics, pick role-playing paths, fence fan traps, then emit either one base-anchored
 * SELECT or, when a metric lives at a coarser grain than the joined rows, one CTE per grain joined
 * NULL-safely on the dimension keys.
 */
import type { MemberDef, MetricDef, SemanticViewDefinition } from "../model.js";
import { SemanticViewError } from "../semantic-error.js";
import { significant } from "../sql/lexer.js";
import { quoteIdent } from "../sql/quote.js";
import { guardAggregates, qualifiersOf, rewriteQualifiers, rewriteReferences, tokensOf } from "./expression.js";
import { JoinGraph, keyOf, type JoinTree, type TreeStep } from "./join-graph.js";
import { resolveMembers } from "./resolve.js";
import { isActiveSemiAdditive, snapshotGrainSql, unqueriedSnapshotDims } from "./semi-additive.js";
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

/** A table a query needs joined, and who needs it (for error messages). */
interface Requirement {
  readonly table: string;
  readonly label: string;
}

const same = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

export function expandSemanticQuery(def: SemanticViewDefinition, request: SemanticQueryRequest): ExpandedQuery {
  return new Expansion(def, request).run();
}

class Expansion {
  private readonly graph: JoinGraph;
  private readonly view: string;
  private readonly factSql = new Map<MemberDef, string>();
  /** Role-played table key → every USING relationship the request's metrics name for it. */
  private conflicts = new Map<string, Set<string>>();

  constructor(
    private readonly def: SemanticViewDefinition,
    private readonly request: SemanticQueryRequest,
  ) {
    this.graph = new JoinGraph(def);
    this.view = def.name;
  }

  private fail(message: string): never {
    throw new SemanticViewError("invalid", `semantic view '${this.view}': ${message}`);
  }

  run(): ExpandedQuery {
    const { request } = this;
    if (request.facts.length > 0 && request.metrics.length > 0) {
      this.fail("cannot combine facts and metrics in the same query");
    }
    if (request.dimensions.length === 0 && request.metrics.length === 0 && request.facts.length === 0) {
      throw new SemanticViewError(
        "invalid",
        "semantic_view: specify at least dimensions := [...], metrics := [...], or facts := [...]",
      );
    }
    const dims = resolveMembers<MemberDef>(this.def, "dimension", request.dimensions);
    const metrics = resolveMembers<MetricDef>(this.def, "metric", request.metrics);
    const facts = resolveMembers<MemberDef>(this.def, "fact", request.facts);
    const columns = [...dims, ...metrics, ...facts].map((m) => m.name);
    if (columns.length === 0) this.fail("the requested wildcards match no public members");
    const clash = columns.find((c, i) => columns.findIndex((d) => same(c, d)) !== i);
    if (clash !== undefined) this.fail(`duplicate output column '${clash}'`);
    const windowed = expandWindowMetrics(this.def, dims, metrics, request.whereClause, expandSemanticQuery);
    if (windowed !== undefined) return { sql: windowed, columns };

    const dimSql = dims.map((d) => this.memberSql(d));
    const factSqlList = facts.map((f) => this.memberSql(f));
    const where = this.whereSql();

    // Base metrics behind every requested metric (derived ones inlined), and their USING choices.
    const bases: MetricDef[] = [];
    for (const m of metrics) {
      for (const b of this.baseMetricsOf(m, [])) if (!bases.includes(b)) bases.push(b);
    }
    const choices = this.roleChoices(metrics);

    const rowReqs: Requirement[] = [
      ...dims.map((d, i) => this.requirementsOf(d.table, dimSql[i]!, `dimension '${d.name}'`)).flat(),
      ...facts.map((f, i) => this.requirementsOf(f.table, factSqlList[i]!, `fact '${f.name}'`)).flat(),
      ...(where === undefined ? [] : where.tables.map((t) => ({ table: t, label: "where_clause" }))),
    ];
    const baseSql = new Map(bases.map((b) => [b, this.inlineFacts(b.expr, b.table!, [])]));
    // An active semi-additive metric also needs the tables of its unqueried NON ADDITIVE BY dimensions.
    const metricReqs = new Map(
      bases.map((b) => [
        b,
        [
          ...this.requirementsOf(b.table!, baseSql.get(b)!, `metric '${b.name}'`),
          ...unqueriedSnapshotDims(this.def, b, dims).flatMap((d) =>
            this.requirementsOf(d.table, this.memberSql(d), `dimension '${d.name}' (NON ADDITIVE BY of metric '${b.name}')`),
          ),
        ],
      ]),
    );
    this.checkRoles([...rowReqs, ...[...metricReqs.values()].flat()], choices);

    const aliasOf = (key: string): string => {
      const chosen = choices.get(key);
      const alias = this.graph.table(key).alias;
      return chosen !== undefined && this.graph.roleTables.has(key) ? `${alias}__${chosen}` : alias;
    };
    const scoped = (sql: string): string =>
      rewriteQualifiers(sql, (q) => {
        const k = keyOf(q);
        return this.graph.roleTables.has(k) && this.graph.tables.has(k) ? quoteIdent(aliasOf(k)) : undefined;
      });

    // Fan-trap fence: every row-level requirement must be reachable from each metric's table
    // without crossing a one-to-many edge.
    const treeFrom = new Map<string, JoinTree>();
    const treeAt = (key: string): JoinTree => {
      let t = treeFrom.get(key);
      if (t === undefined) treeFrom.set(key, (t = this.graph.tree(key, choices)));
      return t;
    };
    for (const b of bases) {
      const tk = keyOf(b.table!);
      const tree = treeAt(tk);
      for (const req of [...rowReqs, ...metricReqs.get(b)!]) {
        const path = this.reach(tree, req, choices);
        const fan = path.find((s) => s.fans);
        if (fan !== undefined) {
          this.fail(
            `fan trap detected -- metric '${b.name}' (table '${this.graph.table(tk).alias}') would be duplicated when joined to ${req.label} (table '${this.graph.table(req.table).alias}') through the one-to-many relationship '${fan.rel.name}'`,
          );
        }
      }
    }

    const dimItems = dims.map((d, i) => ({ sql: scoped(dimSql[i]!), name: d.name }));
    const whereScoped = where === undefined ? undefined : scoped(where.sql);

    if (metrics.length === 0) {
      // Row-level modes: SELECT DISTINCT dimensions, or facts (with optional dimensions).
      const items = [...dimItems, ...facts.map((f, i) => ({ sql: scoped(factSqlList[i]!), name: f.name }))];
      const base = this.graph.baseKey;
      const tree = treeAt(base);
      const memberTables = new Set(rowReqs.filter((r) => r.label !== "where_clause").map((r) => r.table));
      const conditions = whereScoped === undefined ? [] : [`(${whereScoped})`];
      if (memberTables.size === 1) {
        const only = [...memberTables][0]!;
        const key = only === base ? undefined : this.keySql(only, aliasOf(only));
        if (key !== undefined) conditions.push(`${key} IS NOT NULL`);
      }
      const sql = this.select({
        tree,
        aliasOf,
        items,
        needed: rowReqs.map((r) => r.table),
        conditions,
        distinct: facts.length === 0,
        groupCount: 0,
      });
      return { sql, columns };
    }

    // Can every metric be computed in one base-anchored SELECT?
    const base = this.graph.baseKey;
    const baseTree = treeAt(base);
    const allTables = [...rowReqs.map((r) => r.table), ...bases.map((b) => keyOf(b.table!))];
    for (const reqs of metricReqs.values()) for (const r of reqs) allTables.push(r.table);
    const joined = this.joinedTables(baseTree, allTables);
    // A snapshot is taken at the semi-additive metric's own grain, never over a join that fans it.
    const snapshots = bases.some((b) => isActiveSemiAdditive(b, dims));
    const singleGrain = !snapshots && bases.every((b) => {
      const tree = treeAt(keyOf(b.table!));
      return [...joined].every((t) => {
        const path = this.graph.path(tree, t);
        return path !== undefined && !path.some((s) => s.fans);
      });
    });

    const baseMetricSql = (b: MetricDef, anchor: string): string => {
      const tk = keyOf(b.table!);
      let sql = scoped(baseSql.get(b)!);
      if (tk !== anchor) {
        const key = this.keySql(tk, aliasOf(tk));
        if (key === undefined) {
          if (/count\s*\(\s*\*\s*\)/i.test(sql)) {
            this.fail(
              `metric '${b.name}' uses COUNT(*) on joined table '${this.graph.table(tk).alias}', which has no PRIMARY KEY or UNIQUE key to count`,
            );
          }
        } else {
          sql = guardAggregates(sql, key);
        }
      }
      return sql;
    };
    const conditions = whereScoped === undefined ? [] : [`(${whereScoped})`];

    if (singleGrain) {
      const items = [
        ...dimItems,
        ...metrics.map((m) => ({ sql: this.renderMetric(m, (b) => `(${baseMetricSql(b, base)})`, []), name: m.name })),
      ];
      const sql = this.select({
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

    // One CTE per grain (metric table), each anchored at its own table.
    const grains: { anchor: string; bases: MetricDef[] }[] = [];
    for (const b of bases) {
      const tk = keyOf(b.table!);
      const g = grains.find((x) => x.anchor === tk);
      if (g === undefined) grains.push({ anchor: tk, bases: [b] });
      else g.bases.push(b);
    }
    const baseIndex = new Map(bases.map((b, i) => [b, i]));
    const grainOf = new Map<MetricDef, number>();
    const ctes = grains.map((g, gi) => {
      for (const b of g.bases) grainOf.set(b, gi);
      const items = [
        ...dimItems.map((d, i) => ({ sql: d.sql, name: `__sv_d${i}` })),
        ...g.bases.map((b) => ({ sql: baseMetricSql(b, g.anchor), name: `__sv_m${baseIndex.get(b)!}` })),
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
          dimensionSql: (d: MemberDef) => scoped(this.memberSql(d)),
          viewDimensions: this.def.dimensions,
        };
        const rows = (snapshotItems: { sql: string; name: string }[]): string =>
          this.select({ tree: treeAt(g.anchor), aliasOf, items: snapshotItems, needed, conditions, distinct: false, groupCount: 0 });
        return snapshotGrainSql(this.view, grain, rows);
      }
      return this.select({
        tree: treeAt(g.anchor),
        aliasOf,
        items,
        needed,
        conditions,
        distinct: false,
        groupCount: dims.length,
      });
    });
    const g = (i: number): string => `__sv_g${i}`;
    const selectList = [
      ...dims.map((d, i) => {
        const key = `"__sv_d${i}"`;
        const expr = grains.length === 1 ? `${g(0)}.${key}` : `COALESCE(${grains.map((_, gi) => `${g(gi)}.${key}`).join(", ")})`;
        return `${expr} AS ${quoteIdent(d.name)}`;
      }),
      ...metrics.map(
        (m) =>
          `${this.renderMetric(m, (b) => `${g(grainOf.get(b)!)}."__sv_m${baseIndex.get(b)!}"`, [])} AS ${quoteIdent(m.name)}`,
      ),
    ];
    let from = `__sv_grain_0 AS ${g(0)}`;
    for (let gi = 1; gi < grains.length; gi++) {
      if (dims.length === 0) {
        from += `\nCROSS JOIN __sv_grain_${gi} AS ${g(gi)}`;
        continue;
      }
      const on = dims.map((_, i) => {
        const key = `"__sv_d${i}"`;
        const left = gi === 1 ? `${g(0)}.${key}` : `COALESCE(${grains.slice(0, gi).map((__, pj) => `${g(pj)}.${key}`).join(", ")})`;
        return `${left} IS NOT DISTINCT FROM ${g(gi)}.${key}`;
      });
      from += `\nFULL OUTER JOIN __sv_grain_${gi} AS ${g(gi)} ON ${on.join(" AND ")}`;
    }
    const sql =
      `WITH ${ctes.map((c, i) => `__sv_grain_${i} AS (\n${c}\n)`).join(",\n")}\n` +
      `SELECT ${selectList.join(", ")}\nFROM ${from}`;
    return { sql, columns };
  }

  // ---- members -------------------------------------------------------------------------------

  /** A fact or dimension expression with facts inlined. */
  private memberSql(m: MemberDef): string {
    return this.inlineFacts(m.expr, m.table, [m]);
  }

  /** Inlines `alias.fact` (and bare facts of the owner table) as `(expr)`, in dependency order. */
  private inlineFacts(expr: string, owner: string, stack: readonly MemberDef[]): string {
    return rewriteReferences(expr, (ref) => {
      const table = ref.qualifier ?? owner;
      const fact = this.def.facts.find((f) => same(f.name, ref.name) && same(f.table, table));
      if (fact === undefined) return undefined;
      // `s.x AS s.x`: the fact names its own column.
      if (stack[stack.length - 1] === fact) return undefined;
      if (stack.includes(fact)) this.fail(`cycle in facts through '${fact.name}'`);
      let sql = this.factSql.get(fact);
      if (sql === undefined) {
        sql = this.inlineFacts(fact.expr, fact.table, [...stack, fact]);
        this.factSql.set(fact, sql);
      }
      return `(${sql})`;
    });
  }

  /** Base metrics a metric depends on (itself if it is one). */
  private baseMetricsOf(m: MetricDef, stack: readonly MetricDef[]): MetricDef[] {
    if (m.table !== undefined) return [m];
    if (stack.includes(m)) this.fail(`cycle in derived metrics through '${m.name}'`);
    const out: MetricDef[] = [];
    rewriteReferences(m.expr, (ref) => {
      const dep = this.metricRef(ref.qualifier, ref.name);
      if (dep !== undefined) for (const b of this.baseMetricsOf(dep, [...stack, m])) if (!out.includes(b)) out.push(b);
      return undefined;
    });
    return out;
  }

  private metricRef(qualifier: string | undefined, name: string): MetricDef | undefined {
    return this.def.metrics.find(
      (x) => same(x.name, name) && (qualifier === undefined ? true : same(x.table, qualifier)),
    );
  }

  /** A metric's SQL with derived metrics inlined over `base(b)` for each base metric. */
  private renderMetric(m: MetricDef, base: (b: MetricDef) => string, stack: readonly MetricDef[]): string {
    if (m.table !== undefined) return base(m);
    if (stack.includes(m)) this.fail(`cycle in derived metrics through '${m.name}'`);
    return rewriteReferences(m.expr, (ref) => {
      const dep = this.metricRef(ref.qualifier, ref.name);
      if (dep === undefined) return undefined;
      const inner = this.renderMetric(dep, base, [...stack, m]);
      return dep.table === undefined ? `(${inner})` : inner;
    });
  }

  /** The relationship each role-played table is reached through, from the metrics' USING. */
  private roleChoices(metrics: readonly MetricDef[]): Map<string, string> {
    const wanted = new Map<string, Set<string>>();
    const addUsing = (m: MetricDef): void => {
      for (const relName of m.using) {
        const rel = this.def.relationships.find((r) => same(r.name, relName));
        if (rel === undefined) this.fail(`metric '${m.name}' uses unknown relationship '${relName}'`);
        const target = keyOf(rel.toAlias);
        if (!this.graph.roleTables.has(target)) continue;
        const set = wanted.get(target) ?? new Set<string>();
        set.add(rel.name);
        wanted.set(target, set);
      }
    };
    for (const m of metrics) {
      addUsing(m);
      for (const b of this.baseMetricsOf(m, [])) addUsing(b);
    }
    this.conflicts = wanted;
    const choices = new Map<string, string>();
    for (const [k, rels] of wanted) if (rels.size === 1) choices.set(k, [...rels][0]!);
    return choices;
  }

  /** Role-playing errors: a needed role-played table with no USING, or conflicting ones. */
  private checkRoles(reqs: readonly Requirement[], choices: ReadonlyMap<string, string>): void {
    const tree = this.graph.tree(this.graph.baseKey, choices);
    for (const req of reqs) {
      if (this.graph.roleTables.has(req.table)) this.checkRole(req.table, req, choices);
      if (this.graph.path(tree, req.table) !== undefined) continue;
      // Unreachable: some role-played table on the way has no unique path.
      for (const rk of this.graph.roleTables.keys()) if (!choices.has(rk)) this.checkRole(rk, req, choices);
    }
  }

  private checkRole(roleKey: string, req: Requirement, choices: ReadonlyMap<string, string>): void {
    if (choices.has(roleKey)) return;
    const alias = this.graph.table(roleKey).alias;
    const rels = this.graph.roleTables.get(roleKey)!.map((r) => r.name);
    const conflicting = this.conflicts.get(roleKey);
    if (conflicting !== undefined && conflicting.size > 1) {
      this.fail(
        `conflicting USING relationships [${[...conflicting].join(", ")}] for role-playing table '${alias}' needed by ${req.label}; query metrics that use one path at a time`,
      );
    }
    this.fail(
      `${req.label} needs role-playing table '${alias}', which is reached through several relationships [${rels.join(", ")}]; request a metric declared with USING (<relationship>) to pick one`,
    );
  }

  /** Tables an expression needs: its owner plus every table alias it qualifies columns with. */
  private requirementsOf(owner: string | undefined, sql: string, label: string): Requirement[] {
    const out: Requirement[] = [];
    const add = (alias: string): void => {
      const k = keyOf(alias);
      if (this.graph.tables.has(k) && !out.some((r) => r.table === k)) out.push({ table: k, label });
    };
    if (owner !== undefined) add(owner);
    for (const q of qualifiersOf(sql)) add(q);
    return out;
  }

  /** The path to a requirement from a tree's anchor; unreachable means an unresolved role-play. */
  private reach(tree: JoinTree, req: Requirement, choices: ReadonlyMap<string, string>) {
    const path = this.graph.path(tree, req.table);
    if (path === undefined) {
      for (const rk of this.graph.roleTables.keys()) this.checkRole(rk, req, choices);
      this.fail(`${req.label} (table '${req.table}') is not reachable through the relationships`);
    }
    return path;
  }

  // ---- where_clause --------------------------------------------------------------------------

  private whereSql(): { sql: string; tables: string[] } | undefined {
    const raw = this.request.whereClause;
    if (raw === undefined || raw.trim() === "") return undefined;
    this.checkPredicateShape(raw);
    const rowMembers = [...this.def.dimensions, ...this.def.facts];
    const sql = rewriteReferences(raw, (ref) => {
      const member = rowMembers.find(
        (m) => same(m.name, ref.name) && (ref.qualifier === undefined || same(m.table, ref.qualifier)),
      );
      if (member !== undefined) return `(${this.memberSql(member)})`;
      const metric = this.metricRef(ref.qualifier, ref.name);
      if (metric !== undefined) {
        this.fail(
          `where_clause cannot reference metric '${metric.name}'; it filters rows before aggregation (filter metrics in an outer WHERE)`,
        );
      }
      return undefined;
    });
    const tables: string[] = [];
    for (const q of qualifiersOf(sql)) {
      const k = keyOf(q);
      if (this.graph.tables.has(k) && !tables.includes(k)) tables.push(k);
    }
    return { sql, tables };
  }

  /** The predicate is spliced into WHERE (...): it must stay one balanced expression. */
  private checkPredicateShape(raw: string): void {
    let depth = 0;
    for (const t of tokensOf(raw)) {
      if (t.kind !== "punct") continue;
      if (t.text === ";") this.fail("where_clause must be a single predicate (found ';')");
      if (t.text === "(") depth++;
      if (t.text === ")" && --depth < 0) this.fail("where_clause has an unbalanced ')'");
    }
    if (depth !== 0) this.fail("where_clause has an unbalanced '('");
  }

  // ---- SQL emission --------------------------------------------------------------------------

  /** `"alias"."pk"` for a table's first key column, or undefined when it has no key. */
  private keySql(key: string, sqlAlias: string): string | undefined {
    const t = this.graph.table(key);
    const column = t.primaryKey[0] ?? t.unique[0]?.[0];
    return column === undefined ? undefined : `${quoteIdent(sqlAlias)}.${quoteIdent(column)}`;
  }

  /** Tables on the tree paths from the anchor to each needed table, in join order. */
  private joinedTables(tree: JoinTree, needed: readonly string[]): Set<string> {
    const out = new Set<string>([tree.anchor]);
    for (const t of needed) {
      const path = this.graph.path(tree, t);
      if (path === undefined) continue;
      for (const s of path) out.add(stepChild(s));
    }
    return out;
  }

  private select(opts: {
    tree: JoinTree;
    aliasOf: (key: string) => string;
    items: readonly { sql: string; name: string }[];
    needed: readonly string[];
    conditions: readonly string[];
    distinct: boolean;
    groupCount: number;
  }): string {
    const { tree, aliasOf } = opts;
    const joined = this.joinedTables(tree, opts.needed);
    // Emit joins in breadth-first order so every ON refers to an already joined table.
    const order = [...joined].sort((a, b) => depth(tree, a) - depth(tree, b));
    const lines = [
      `SELECT ${opts.distinct ? "DISTINCT " : ""}${opts.items.map((i) => `${i.sql} AS ${quoteIdent(i.name)}`).join(", ")}`,
      `FROM ${this.tableRef(tree.anchor)} AS ${quoteIdent(aliasOf(tree.anchor))}`,
    ];
    for (const k of order) {
      if (k === tree.anchor) continue;
      const step = tree.steps.get(k)!;
      const rel = step.rel;
      const fromAlias = quoteIdent(aliasOf(keyOf(rel.fromAlias)));
      const toAlias = quoteIdent(aliasOf(keyOf(rel.toAlias)));
      const on = rel.fkColumns.map(
        (fk, i) => `${fromAlias}.${quoteIdent(fk)} = ${toAlias}.${quoteIdent(rel.refColumns[i] ?? fk)}`,
      );
      lines.push(`LEFT JOIN ${this.tableRef(k)} AS ${quoteIdent(aliasOf(k))} ON ${on.join(" AND ")}`);
    }
    if (opts.conditions.length > 0) lines.push(`WHERE ${opts.conditions.join(" AND ")}`);
    if (opts.groupCount > 0) {
      lines.push(`GROUP BY ${Array.from({ length: opts.groupCount }, (_, i) => i + 1).join(", ")}`);
    }
    return lines.join("\n");
  }

  /** The physical table reference as written, re-quoted part by part. */
  private tableRef(key: string): string {
    const t = this.graph.table(key);
    const tokens = significant(tokensOf(t.table));
    const parts: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!;
      if (i % 2 === 1) {
        if (tok.kind === "punct" && tok.text === ".") continue;
        this.fail(`table '${t.alias}' has an unsupported table reference '${t.table}'`);
      }
      if (tok.kind !== "ident" && tok.kind !== "quoted_ident") {
        this.fail(`table '${t.alias}' has an unsupported table reference '${t.table}'`);
      }
      parts.push(quoteIdent(tok.value));
    }
    if (parts.length === 0 || tokens.length % 2 === 0) {
      this.fail(`table '${t.alias}' has an unsupported table reference '${t.table}'`);
    }
    return parts.join(".");
  }
}

/** The table a tree step leads to (the end of the relationship that is not its parent). */
function stepChild(step: TreeStep): string {
  const from = keyOf(step.rel.fromAlias);
  return from === step.parent ? keyOf(step.rel.toAlias) : from;
}

function depth(tree: JoinTree, key: string): number {
  let d = 0;
  let cur = key;
  while (cur !== tree.anchor) {
    const s = tree.steps.get(cur);
    if (s === undefined) return Number.MAX_SAFE_INTEGER;
    cur = s.parent;
    d++;
  }
  return d;
}
