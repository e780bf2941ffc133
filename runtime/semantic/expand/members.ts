/**
 * Member SQL: facts inlined into the expressions that use them, derived metrics inlined over the
 * base metrics they combine.
 *
 * Inlining copies a member's text at every use, so a chain where each member uses the previous one
 * twice doubles per level. `sharing: "shared"` computes each fact once instead: a fact that uses
 * only its own table becomes a column of that table's layered projection (`fact-layers.ts`) and is
 * referenced as `alias."__sv_f<i>"`; a fact that uses another table's facts is computed over the
 * joined row, once, in a single-row `CROSS JOIN LATERAL` per dependency level
 * (`"__sv_j<level>"."__sv_f<i>"`); derived metrics are then evaluated by `derived-layers.ts`, one
 * projection per dependency level. In both modes a member's text may not exceed `budget` bytes
 * (`ExpansionTooLarge`).
 */
import { identEquals, quoteIdent } from "../sql/quote.js";
import type { MemberDef, MetricDef } from "../view-definition.js";
import { type ExpandContext } from "./context.js";
import { rewriteReferences } from "../sql/references.js";
import { keyOf } from "./join-graph.js";

export type MemberSharing = "inline" | "shared";

/** A member's expanded text grew past the budget (the caller shares members or reports the limit). */
export class ExpansionTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`expanded member text of ${bytes} bytes`);
  }
}

/** A fact computed once as a column of its table's layered projection. */
export interface LayerColumn {
  readonly column: string;
  /** The expression over the table's columns and lower layers' columns (qualified by the table's declared alias). */
  readonly sql: string;
  /** 0 when it uses no other layered fact, else one more than the deepest it uses. */
  readonly level: number;
}

/** A fact over several tables, computed once per joined row in its level's lateral projection. */
export interface LateralColumn extends LayerColumn {
  /** Keys of the tables its expression needs (a SELECT that joins them all computes it). */
  readonly tables: readonly string[];
}

/** The alias of the lateral projection computing the cross-table facts of one dependency level. */
export const lateralAlias = (level: number): string => `__sv_j${level}`;

export class MemberSql {
  private readonly factSql = new Map<MemberDef, string>();
  private readonly factTables = new Map<MemberDef, string[]>();
  private readonly bases = new Map<MetricDef, MetricDef[]>();
  private readonly layerOf = new Map<MemberDef, LayerColumn>();
  private readonly factsByName = new Map<string, MemberDef[]>();
  private readonly metricsByName = new Map<string, MetricDef[]>();
  private readonly lateralOf = new Map<MemberDef, LateralColumn>();
  /** Column → level, of the table layers and of the laterals (levels are counted separately). */
  private readonly layerLevels = new Map<string, number>();
  private readonly lateralLevels = new Map<string, number>();
  /** Table key → facts computed as columns of its layered projection, in dependency order (shared mode). */
  readonly layers = new Map<string, LayerColumn[]>();
  /** Facts over several tables, in dependency order (shared mode). */
  readonly laterals: LateralColumn[] = [];

  constructor(
    private readonly ctx: ExpandContext,
    readonly sharing: MemberSharing = "inline",
    private readonly budget = Number.POSITIVE_INFINITY,
  ) {
    for (const f of ctx.def.facts) pushTo(this.factsByName, keyOf(f.name), f);
    for (const m of ctx.def.metrics) pushTo(this.metricsByName, keyOf(m.name), m);
  }

  /** A fact or dimension expression with facts inlined. */
  of(m: MemberDef): string {
    return this.inlineFacts(m.expr, m.table, [m]);
  }

  private factRef(name: string, table: string): MemberDef | undefined {
    return this.factsByName.get(keyOf(name))?.find((f) => identEquals(f.table, table));
  }

  /** Inlines `alias.fact` (and bare facts of the owner table) as `(expr)`, in dependency order. */
  inlineFacts(expr: string, owner: string, stack: readonly MemberDef[]): string {
    const out = rewriteReferences(expr, (ref) => {
      const fact = this.factRef(ref.name, ref.qualifier ?? owner);
      if (fact === undefined) return undefined;
      // `s.x AS s.x`: the fact names its own column.
      if (stack[stack.length - 1] === fact) return undefined;
      if (stack.includes(fact)) this.ctx.fail(`cycle in facts through '${fact.name}'`);
      if (this.sharing === "shared") {
        if (!this.isLocal(fact)) {
          const column = this.lateral(fact, stack);
          return `${quoteIdent(lateralAlias(column.level))}.${quoteIdent(column.column)}`;
        }
        return `${quoteIdent(this.ctx.graph.table(keyOf(fact.table)).alias)}.${quoteIdent(this.layered(fact, stack).column)}`;
      }
      let sql = this.factSql.get(fact);
      if (sql === undefined) {
        sql = this.inlineFacts(fact.expr, fact.table, [...stack, fact]);
        this.factSql.set(fact, sql);
      }
      return `(${sql})`;
    });
    return this.withinBudget(out);
  }

  private withinBudget(sql: string): string {
    if (sql.length > this.budget) throw new ExpansionTooLarge(sql.length);
    return sql;
  }

  /** A fact that needs no table but its own can be computed in that table's projection. */
  private isLocal(fact: MemberDef): boolean {
    const own = keyOf(fact.table);
    if (!this.ctx.graph.tables.has(own)) return false;
    return this.tablesOf(fact.expr, fact.table, [fact]).every(
      (a) => keyOf(a) === own || !this.ctx.graph.tables.has(keyOf(a)),
    );
  }

  /** The fact's column in its table's layer, added (after the facts it uses) on first use. */
  private layered(fact: MemberDef, stack: readonly MemberDef[]): LayerColumn {
    const known = this.layerOf.get(fact);
    if (known !== undefined) return known;
    const key = keyOf(fact.table);
    const columns = this.layers.get(key) ?? [];
    this.layers.set(key, columns);
    const sql = this.inlineFacts(fact.expr, fact.table, [...stack, fact]);
    const layer = { column: this.nextColumn(), sql, level: this.levelAbove(sql) };
    this.layerOf.set(fact, layer);
    this.layerLevels.set(layer.column, layer.level);
    columns.push(layer);
    return layer;
  }

  /** The cross-table fact's lateral column, added (after the facts it uses) on first use. */
  private lateral(fact: MemberDef, stack: readonly MemberDef[]): LateralColumn {
    const known = this.lateralOf.get(fact);
    if (known !== undefined) return known;
    const sql = this.inlineFacts(fact.expr, fact.table, [...stack, fact]);
    // Its level counts lateral levels only: the table layers are all computed before any lateral.
    const level = this.levelAbove(sql, this.lateralLevels);
    const tables = this.tablesOf(fact.expr, fact.table, [fact])
      .map(keyOf)
      .filter((k) => this.ctx.graph.tables.has(k));
    const column = { column: this.nextColumn(), sql, level, tables };
    this.lateralLevels.set(column.column, level);
    this.lateralOf.set(fact, column);
    this.laterals.push(column);
    return column;
  }

  private nextColumn(): string {
    return `__sv_f${this.layerOf.size + this.lateralOf.size}`;
  }

  /** 0 when `sql` uses none of `levels`' columns, else one more than the deepest it uses. */
  private levelAbove(sql: string, levels: ReadonlyMap<string, number> = this.layerLevels): number {
    let level = 0;
    for (const [, column] of sql.matchAll(/"(__sv_f\d+)"/g)) {
      const used = levels.get(column!);
      if (used !== undefined) level = Math.max(level, used + 1);
    }
    return level;
  }

  /**
   * Table aliases an expression needs joined: its owner, every alias it qualifies a column with, and
   * the tables of the facts it inlines, transitively (a fact's expression may use bare columns of
   * its own table, which the inlined SQL no longer names). Memoized per fact.
   */
  tablesOf(expr: string, owner: string | undefined, stack: readonly MemberDef[] = []): string[] {
    const out: string[] = [];
    const add = (alias: string | undefined): void => {
      if (alias !== undefined && !out.some((a) => identEquals(a, alias))) out.push(alias);
    };
    add(owner);
    rewriteReferences(expr, (ref) => {
      add(ref.qualifier);
      const table = ref.qualifier ?? owner;
      const fact = table === undefined ? undefined : this.factRef(ref.name, table);
      if (fact !== undefined && stack[stack.length - 1] !== fact && !stack.includes(fact)) {
        let tables = this.factTables.get(fact);
        if (tables === undefined) {
          tables = this.tablesOf(fact.expr, fact.table, [...stack, fact]);
          this.factTables.set(fact, tables);
        }
        for (const t of tables) add(t);
      }
      return undefined;
    });
    return out;
  }

  /** Base metrics a metric depends on (itself if it is one). Memoized. */
  baseMetricsOf(m: MetricDef, stack: readonly MetricDef[] = []): MetricDef[] {
    if (m.table !== undefined) return [m];
    const known = this.bases.get(m);
    if (known !== undefined) return known;
    if (stack.includes(m)) this.ctx.fail(`cycle in derived metrics through '${m.name}'`);
    const out: MetricDef[] = [];
    for (const dep of this.metricDeps(m))
      for (const b of this.baseMetricsOf(dep, [...stack, m])) if (!out.includes(b)) out.push(b);
    this.bases.set(m, out);
    return out;
  }

  /** The metrics a derived metric's expression names, once each, in order of first mention. */
  metricDeps(m: MetricDef): MetricDef[] {
    const deps: MetricDef[] = [];
    rewriteReferences(m.expr, (ref) => {
      const dep = this.metricRef(ref.qualifier, ref.name);
      if (dep !== undefined && !deps.includes(dep)) deps.push(dep);
      return undefined;
    });
    return deps;
  }

  metricRef(qualifier: string | undefined, name: string): MetricDef | undefined {
    return this.metricsByName
      .get(keyOf(name))
      ?.find((x) => (qualifier === undefined ? true : identEquals(x.table, qualifier)));
  }

  /** A metric's SQL with derived metrics inlined over `base(b)` for each base metric. */
  renderMetric(m: MetricDef, base: (b: MetricDef) => string): string {
    return this.renderWith(m, base, new Map(), []);
  }

  private renderWith(
    m: MetricDef,
    base: (b: MetricDef) => string,
    done: Map<MetricDef, string>,
    stack: readonly MetricDef[],
  ): string {
    if (m.table !== undefined) return base(m);
    const known = done.get(m);
    if (known !== undefined) return known;
    if (stack.includes(m)) this.ctx.fail(`cycle in derived metrics through '${m.name}'`);
    const sql = this.withinBudget(
      rewriteReferences(m.expr, (ref) => {
        const dep = this.metricRef(ref.qualifier, ref.name);
        if (dep === undefined) return undefined;
        const inner = this.renderWith(dep, base, done, [...stack, m]);
        return dep.table === undefined ? `(${inner})` : inner;
      }),
    );
    done.set(m, sql);
    return sql;
  }
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
