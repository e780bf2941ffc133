/**
 * Role-playing tables: a table several relationships point at is joined only through the
 * relationship a requested metric names in USING; none or several is an error naming the table.
 */
import { identEquals } from "../sql/quote.js";
import type { MetricDef } from "../view-definition.js";
import { type ExpandContext, type Requirement } from "./context.js";
import { firstFan, keyOf, type JoinTree, type TreeStep } from "./join-graph.js";
import type { MemberSql } from "./members.js";

export class RolePaths {
  /** Role-played table key → every USING relationship the request's metrics name for it. */
  private conflicts = new Map<string, Set<string>>();
  /** Role-played table key → the one relationship chosen for it. */
  readonly choices = new Map<string, string>();

  constructor(
    private readonly ctx: ExpandContext,
    members: MemberSql,
    metrics: readonly MetricDef[],
  ) {
    const wanted = new Map<string, Set<string>>();
    const addUsing = (m: MetricDef): void => {
      for (const relName of m.using) {
        const rel = ctx.def.relationships.find((r) => identEquals(r.name, relName));
        if (rel === undefined) ctx.fail(`metric '${m.name}' uses unknown relationship '${relName}'`);
        const target = keyOf(rel.toAlias);
        if (!ctx.graph.roleTables.has(target)) continue;
        const set = wanted.get(target) ?? new Set<string>();
        set.add(rel.name);
        wanted.set(target, set);
      }
    };
    for (const m of metrics) {
      addUsing(m);
      for (const b of members.baseMetricsOf(m)) addUsing(b);
    }
    this.conflicts = wanted;
    for (const [k, rels] of wanted) if (rels.size === 1) this.choices.set(k, [...rels][0]!);
  }

  /** The SQL alias of a table: role-played tables get `<alias>__<relationship>`. */
  aliasOf(key: string): string {
    const chosen = this.choices.get(key);
    const alias = this.ctx.graph.table(key).alias;
    return chosen !== undefined && this.ctx.graph.roleTables.has(key) ? `${alias}__${chosen}` : alias;
  }

  /** Role-playing errors: a needed role-played table with no USING, or conflicting ones. */
  check(reqs: readonly Requirement[]): void {
    const graph = this.ctx.graph;
    const tree = graph.tree(graph.baseKey, this.choices);
    for (const req of reqs) {
      this.checkRowMember(req);
      if (graph.roleTables.has(req.table)) this.checkRole(req.table, req);
      if (tree.depth.has(req.table)) continue;
      // Unreachable: some role-played table on the way has no unique path.
      for (const rk of graph.roleTables.keys()) if (!this.choices.has(rk)) this.checkRole(rk, req);
    }
  }

  /**
   * Members that no USING can bind: a filter or fact on a role-played table (they carry no USING
   * context), and any row-level member on a table reached *through* one (its rows depend on the role).
   */
  private checkRowMember(req: Requirement): void {
    const graph = this.ctx.graph;
    const rowLevel =
      req.label === "where_clause" || req.label.startsWith("fact ") || req.label.startsWith("dimension ");
    if (!rowLevel) return;
    const through = graph.roleAncestor(req.table);
    if (through !== undefined) {
      const rels = graph.roleTables.get(through)!.map((r) => r.name);
      this.ctx.fail(
        `${req.label} is ambiguous -- table '${graph.table(req.table).alias}' is reached through role-playing table '${graph.table(through).alias}' (relationships: [${rels.join(", ")}]), so its rows depend on the role and a metric's USING cannot pick one. Give the target a distinct alias per role, or query it through a non-role-playing table.`,
      );
    }
    if (!req.label.startsWith("dimension ") && graph.roleTables.has(req.table)) this.ambiguous(req.table, req);
  }

  /**
   * The first fanning step on the way from a tree's anchor to a requirement (undefined: none);
   * unreachable means an unresolved role-play.
   */
  fanOnTheWay(tree: JoinTree, req: Requirement): TreeStep | undefined {
    if (!tree.depth.has(req.table)) {
      for (const rk of this.ctx.graph.roleTables.keys()) this.checkRole(rk, req);
      this.ctx.fail(`${req.label} (table '${req.table}') is not reachable through the relationships`);
    }
    return firstFan(tree, req.table);
  }

  private checkRole(roleKey: string, req: Requirement): void {
    if (this.choices.has(roleKey)) return;
    const alias = this.ctx.graph.table(roleKey).alias;
    const conflicting = this.conflicts.get(roleKey);
    if (conflicting !== undefined && conflicting.size > 1) {
      this.ctx.fail(
        `${req.label} is ambiguous -- table '${alias}' is reached via multiple relationships: [${[...conflicting].join(", ")}], each named in USING by a co-queried metric. Query one USING-scoped metric at a time alongside it.`,
      );
    }
    this.ambiguous(roleKey, req);
  }

  private ambiguous(roleKey: string, req: Requirement): never {
    const alias = this.ctx.graph.table(roleKey).alias;
    const rels = this.ctx.graph.roleTables.get(roleKey)!.map((r) => r.name);
    this.ctx.fail(
      `${req.subject ?? req.label} is ambiguous -- table '${alias}' is reached via multiple relationships: [${rels.join(", ")}]. Specify a metric with USING to disambiguate, or use a dimension from a non-ambiguous table.`,
    );
  }
}
