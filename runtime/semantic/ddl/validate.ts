/**
 * CREATE-time validation with the extension's rules, turning a parsed CREATE statement into the
 * stored model. Physical column lists (when the tables exist) sharpen the expression checks; when a
 * table does not exist yet, only the structural rules apply and DuckDB reports bad columns at query
 * time.
 */
import type { MemberDef, MetricDef, RelationshipDef, TableDef } from "../model.js";
import { SemanticViewError } from "../semantic-error.js";
import { positionOf } from "../sql/lexer.js";
import { didYouMean } from "../sql/suggest.js";
import { analyzeExpression, type ExpressionInfo, type NameRef } from "./expression-refs.js";
import type { CreateSemanticViewStatement, DraftMember, DraftTable } from "./statements.js";
import { checkMetricModes } from "./validate-metric-modes.js";

/** A physical table as found in DuckDB's catalog. */
export interface PhysicalTable {
  readonly database: string;
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly string[];
}

export interface ValidatedModel {
  readonly tables: TableDef[];
  readonly relationships: RelationshipDef[];
  readonly facts: MemberDef[];
  readonly dimensions: MemberDef[];
  readonly metrics: MetricDef[];
}

const lower = (s: string): string => s.toLowerCase();
const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => lower(x) === lower(y)));

/**
 * @param physical physical table per table alias (lower-cased key); absent when the table was not found.
 */
export function validateCreate(stmt: CreateSemanticViewStatement, physical: ReadonlyMap<string, PhysicalTable>): ValidatedModel {
  const v = new Validator(stmt, physical);
  return v.run();
}

class Validator {
  private readonly tableByAlias = new Map<string, DraftTable>();
  /** Member name (lower) → its kind, for uniqueness and reference resolution. */
  private readonly members = new Map<string, DraftMember>();
  private readonly analyses = new Map<DraftMember, ExpressionInfo>();

  constructor(
    private readonly stmt: CreateSemanticViewStatement,
    private readonly physical: ReadonlyMap<string, PhysicalTable>,
  ) {}

  private fail(message: string, offset?: number): never {
    if (offset === undefined || offset < 0) throw new SemanticViewError("invalid", message);
    const { line, column } = positionOf(this.stmt.sql, offset);
    const lineText = this.stmt.sql.split("\n")[line - 1] ?? "";
    const prefix = `LINE ${line}: `;
    throw new SemanticViewError(
      "invalid",
      `${message} (line ${line}, column ${column})\n${prefix}${lineText}\n${" ".repeat(prefix.length + column - 1)}^`,
    );
  }

  private aliases(): string[] {
    return this.stmt.tables.map((t) => t.alias);
  }

  private columnsOf(alias: string): readonly string[] | undefined {
    return this.physical.get(lower(alias))?.columns;
  }

  private hasColumn(alias: string, column: string): boolean | undefined {
    const cols = this.columnsOf(alias);
    return cols === undefined ? undefined : cols.some((c) => lower(c) === lower(column));
  }

  private checkColumns(alias: string, columns: readonly string[], what: string, offset: number): void {
    const cols = this.columnsOf(alias);
    if (cols === undefined) return;
    for (const c of columns) {
      if (!cols.some((x) => lower(x) === lower(c))) {
        this.fail(`${what}: column '${c}' does not exist in table '${alias}'.${didYouMean(c, cols)}`, offset);
      }
    }
  }

  run(): ValidatedModel {
    const tables = this.tables();
    const relationships = this.relationships(tables);
    this.collectMembers();
    const facts = this.stmt.facts.map((m) => this.fact(m));
    this.checkFactCycles();
    const dimensions = this.stmt.dimensions.map((m) => this.dimension(m));
    const metrics = this.stmt.metrics.map((m) => this.metric(m, relationships));
    this.checkDerivedCycles();
    return { tables, relationships, facts, dimensions, metrics };
  }

  // ---- tables and relationships ----

  private tables(): TableDef[] {
    const out: TableDef[] = [];
    for (const t of this.stmt.tables) {
      const key = lower(t.alias);
      if (this.tableByAlias.has(key)) this.fail(`duplicate table alias '${t.alias}' in TABLES`, t.position);
      this.tableByAlias.set(key, t);
      if (t.primaryKey.length > 0) this.checkColumns(t.alias, t.primaryKey, `PRIMARY KEY of table '${t.alias}'`, t.position);
      for (const u of t.unique) this.checkColumns(t.alias, u, `UNIQUE of table '${t.alias}'`, t.position);
      const p = this.physical.get(key);
      out.push({
        alias: t.alias,
        table: t.table,
        primaryKey: [...t.primaryKey],
        unique: t.unique.map((u) => [...u]),
        comment: t.comment,
        synonyms: [...t.synonyms],
        resolved: p === undefined ? undefined : { database: p.database, schema: p.schema, name: p.name },
      });
    }
    return out;
  }

  private requireAlias(alias: string, what: string, offset: number): DraftTable {
    const t = this.tableByAlias.get(lower(alias));
    if (t === undefined) {
      this.fail(`${what} references unknown table alias '${alias}'. Available: [${this.aliases().join(", ")}].${didYouMean(alias, this.aliases())}`, offset);
    }
    return t;
  }

  private relationships(tables: TableDef[]): RelationshipDef[] {
    const out: RelationshipDef[] = [];
    const names = new Set<string>();
    for (const r of this.stmt.relationships) {
      if (names.has(lower(r.name))) this.fail(`duplicate relationship name '${r.name}'`, r.position);
      names.add(lower(r.name));
      const from = this.requireAlias(r.fromAlias, `relationship '${r.name}'`, r.position);
      const to = this.requireAlias(r.toAlias, `relationship '${r.name}'`, r.position);
      if (lower(from.alias) === lower(to.alias)) {
        this.fail(`relationship '${r.name}' references its own table '${from.alias}' (self-references are not supported)`, r.position);
      }
      let refColumns = [...r.refColumns];
      if (refColumns.length === 0) {
        if (to.primaryKey.length === 0) {
          this.fail(`Table '${to.alias}' has no PRIMARY KEY. Specify referenced columns explicitly in relationship '${r.name}'`, r.position);
        }
        refColumns = [...to.primaryKey];
      }
      if (refColumns.length !== r.fkColumns.length) {
        this.fail(
          `relationship '${r.name}' has ${r.fkColumns.length} foreign key column(s) but ${refColumns.length} referenced column(s)`,
          r.position,
        );
      }
      this.checkColumns(from.alias, r.fkColumns, `relationship '${r.name}'`, r.position);
      this.checkColumns(to.alias, refColumns, `relationship '${r.name}'`, r.position);
      // One-to-one when the FK columns are a key of the from table.
      const fromKeys = [from.primaryKey, ...from.unique].filter((k) => k.length > 0);
      const cardinality = fromKeys.some((k) => sameSet(k, r.fkColumns)) ? "one_to_one" : "many_to_one";
      out.push({ name: r.name, fromAlias: from.alias, fkColumns: [...r.fkColumns], toAlias: to.alias, refColumns, cardinality });
    }
    this.checkTree(tables, out);
    return out;
  }

  /** The relationship graph must be a tree rooted at the first table (role-playing edges allowed). */
  private checkTree(tables: TableDef[], rels: RelationshipDef[]): void {
    const root = tables[0]!;
    const position = (r: RelationshipDef): number =>
      this.stmt.relationships.find((d) => lower(d.name) === lower(r.name))?.position ?? 0;
    const parents = new Map<string, RelationshipDef[]>();
    for (const r of rels) {
      const list = parents.get(lower(r.toAlias)) ?? [];
      list.push(r);
      parents.set(lower(r.toAlias), list);
    }
    // Cycles (directed).
    const children = (alias: string): RelationshipDef[] => rels.filter((r) => lower(r.fromAlias) === lower(alias));
    const state = new Map<string, "visiting" | "done">();
    const visit = (alias: string, path: string[]): void => {
      const key = lower(alias);
      if (state.get(key) === "done") return;
      if (state.get(key) === "visiting") {
        const from = path.findIndex((p) => lower(p) === key);
        const cycle = [...path.slice(from), alias].join(" -> ");
        const edge = rels.find((r) => lower(r.toAlias) === key && lower(r.fromAlias) === lower(path[path.length - 1]!));
        this.fail(`relationship cycle detected: ${cycle}; relationships must form a tree rooted at the base table '${root.alias}'`, edge ? position(edge) : undefined);
      }
      state.set(key, "visiting");
      for (const r of children(alias)) visit(r.toAlias, [...path, alias]);
      state.set(key, "done");
    };
    for (const t of tables) visit(t.alias, []);
    const rootParents = parents.get(lower(root.alias));
    if (rootParents !== undefined) {
      const r = rootParents[0]!;
      this.fail(
        `relationship '${r.name}' references the base table '${root.alias}'; the first table in TABLES is the root of the relationship tree and cannot be referenced (list '${r.fromAlias}' first or reverse the relationship)`,
        position(r),
      );
    }
    // Diamonds: a table reached from two different tables (several named edges from one table are role-playing).
    for (const [, list] of parents) {
      const sources = new Set(list.map((r) => lower(r.fromAlias)));
      if (sources.size > 1) {
        const [a, b] = [list[0]!, list.find((r) => lower(r.fromAlias) !== lower(list[0]!.fromAlias))!];
        this.fail(
          `table '${a.toAlias}' is reachable through more than one path ('${a.fromAlias}' via '${a.name}' and '${b.fromAlias}' via '${b.name}'); relationships must form a tree (a diamond is ambiguous)`,
          position(b),
        );
      }
    }
    // Orphans: every table must be reachable from the root.
    const reached = new Set<string>([lower(root.alias)]);
    const queue = [root.alias];
    while (queue.length > 0) {
      const a = queue.shift()!;
      for (const r of children(a)) {
        if (!reached.has(lower(r.toAlias))) {
          reached.add(lower(r.toAlias));
          queue.push(r.toAlias);
        }
      }
    }
    for (const t of this.stmt.tables) {
      if (!reached.has(lower(t.alias))) {
        this.fail(
          `table '${t.alias}' is not connected to the base table '${root.alias}'; add a relationship that reaches it from '${root.alias}' (relationships go from the referencing table to the referenced one)`,
          t.position,
        );
      }
    }
  }

  // ---- members ----

  private collectMembers(): void {
    const kindLabel = { fact: "a fact", dimension: "a dimension", metric: "a metric" } as const;
    for (const m of [...this.stmt.facts, ...this.stmt.dimensions, ...this.stmt.metrics]) {
      const existing = this.members.get(lower(m.name));
      if (existing !== undefined) {
        this.fail(`duplicate name '${m.name}': already defined as ${kindLabel[existing.kind]} (names are unique across facts, dimensions and metrics, case-insensitively)`, m.position);
      }
      this.members.set(lower(m.name), m);
      if (m.table !== undefined) this.requireAlias(m.table, `${m.kind} '${m.name}'`, m.position);
      this.analyses.set(m, analyzeExpression(m.expr));
    }
  }

  private label(m: DraftMember): string {
    return m.table === undefined ? `derived metric '${m.name}'` : `${m.kind} '${m.name}'`;
  }

  private memberOn(alias: string, name: string, kinds: readonly DraftMember["kind"][]): DraftMember | undefined {
    const m = this.members.get(lower(name));
    return m !== undefined && m.table !== undefined && lower(m.table) === lower(alias) && kinds.includes(m.kind) ? m : undefined;
  }

  /**
   * Column-scope rule for row-level and base-metric expressions: `alias.x` must be a column of the
   * member's own table or a fact/dimension (or, for metrics, a metric); another table's columns are
   * reachable only through facts defined there.
   */
  private checkScope(m: DraftMember, refs: readonly NameRef[], allowMetricRefs: boolean): void {
    const own = m.table!;
    const kinds: DraftMember["kind"][] = allowMetricRefs ? ["fact", "dimension", "metric"] : ["fact", "dimension"];
    for (const ref of refs) {
      const at = m.exprPosition < 0 ? -1 : m.exprPosition + ref.position;
      if (!allowMetricRefs) {
        // Row-level members cannot use metrics (unless the name is also a column of the table).
        const metric = ref.qualifier === undefined ? this.members.get(lower(ref.name)) : this.memberOn(ref.qualifier, ref.name, ["metric"]);
        const column = this.hasColumn(ref.qualifier ?? own, ref.name) === true;
        if (metric?.kind === "metric" && !column && (ref.qualifier === undefined || this.tableByAlias.has(lower(ref.qualifier)))) {
          this.fail(`${this.label(m)} references metric '${metric.name}'; ${m.kind}s are row-level expressions and cannot use metrics`, at);
        }
      }
      if (ref.qualifier !== undefined) {
        const target = this.tableByAlias.get(lower(ref.qualifier));
        if (target === undefined) continue; // struct field access or a fully qualified name: left to DuckDB
        if (lower(target.alias) === lower(own)) {
          if (this.hasColumn(own, ref.name) === false && this.memberOn(own, ref.name, kinds) === undefined) {
            const candidates = [...(this.columnsOf(own) ?? []), ...this.stmt.facts.filter((f) => lower(f.table!) === lower(own)).map((f) => f.name)];
            this.fail(`${this.label(m)} references unknown column '${ref.qualifier}.${ref.name}'.${didYouMean(ref.name, candidates)}`, at);
          }
          continue;
        }
        // Across tables only facts (and, from a metric, metrics) are reachable.
        if (this.memberOn(target.alias, ref.name, allowMetricRefs ? ["fact", "metric"] : ["fact"]) !== undefined) continue;
        this.fail(
          `${this.label(m)} on table '${own}' references '${ref.qualifier}.${ref.name}' from table '${target.alias}'; an expression may use only its own table's columns: define a fact on '${target.alias}' and reference it instead`,
          at,
        );
      } else {
        if (this.hasColumn(own, ref.name) !== false) continue; // own column, or unknown table
        const member = this.members.get(lower(ref.name));
        if (member !== undefined) {
          if (member.kind === "fact" || (allowMetricRefs && member.kind === "metric")) continue;
          if (member.kind === "dimension" && member.table !== undefined && lower(member.table) === lower(own)) continue;
        }
        const other = this.stmt.tables.find((t) => lower(t.alias) !== lower(own) && this.hasColumn(t.alias, ref.name) === true);
        if (other !== undefined) {
          this.fail(
            `${this.label(m)} on table '${own}' references column '${ref.name}' of table '${other.alias}'; an expression may use only its own table's columns: define a fact on '${other.alias}' and reference it instead`,
            at,
          );
        }
        // Otherwise: most likely a keyword or an identifier DuckDB will resolve; left to the query.
      }
    }
  }

  private fact(m: DraftMember): MemberDef {
    const info = this.analyses.get(m)!;
    if (info.aggregates.length > 0) {
      this.fail(`fact '${m.name}' uses the aggregate function ${info.aggregates[0]!.toUpperCase()}(); facts are row-level expressions (define a metric instead)`, m.exprPosition);
    }
    if (info.hasWindow) this.fail(`fact '${m.name}' uses a window function; facts are row-level expressions`, m.exprPosition);
    this.checkScope(m, info.refs, false);
    return { name: m.name, table: m.table!, expr: m.expr, access: m.access ?? "public", comment: m.comment, synonyms: [...m.synonyms], isFilter: m.isFilter || undefined };
  }

  private dimension(m: DraftMember): MemberDef {
    const info = this.analyses.get(m)!;
    if (info.aggregates.length > 0) {
      this.fail(`dimension '${m.name}' uses the aggregate function ${info.aggregates[0]!.toUpperCase()}(); dimensions are row-level expressions (define a metric instead)`, m.exprPosition);
    }
    if (info.hasWindow) this.fail(`dimension '${m.name}' uses a window function; dimensions are row-level expressions`, m.exprPosition);
    this.checkScope(m, info.refs, false);
    return { name: m.name, table: m.table!, expr: m.expr, access: "public", comment: m.comment, synonyms: [...m.synonyms], isFilter: m.isFilter || undefined };
  }

  private metricNames(): string[] {
    return this.stmt.metrics.map((x) => x.name);
  }

  private metric(m: DraftMember, rels: RelationshipDef[]): MetricDef {
    const info = this.analyses.get(m)!;
    checkMetricModes(m, info, { dimensions: this.stmt.dimensions, metrics: this.stmt.metrics, fail: (msg, at) => this.fail(msg, at) });
    for (const u of m.using) {
      const rel = rels.find((r) => lower(r.name) === lower(u));
      if (rel === undefined) {
        this.fail(`metric '${m.name}' USING references unknown relationship '${u}'. Available: [${rels.map((r) => r.name).join(", ")}].${didYouMean(u, rels.map((r) => r.name))}`, m.position);
      }
      // The relationship must leave the metric's table or a table below it.
      if (m.table !== undefined && !this.reachable(m.table, rel.fromAlias, rels)) {
        this.fail(`metric '${m.name}' USING relationship '${rel.name}' starts at table '${rel.fromAlias}', which is not reachable from the metric's table '${m.table}'`, m.position);
      }
    }
    if (m.window !== undefined) {
      // Window metric: its expression names the inner metric and dimensions, checked above.
    } else if (m.table === undefined) {
      // Derived metric: an expression over other metrics only.
      if (info.aggregates.length > 0) {
        this.fail(`derived metric '${m.name}' uses the aggregate function ${info.aggregates[0]!.toUpperCase()}(); derived metrics combine other metrics (qualify it as alias.${m.name} to make it a base metric)`, m.exprPosition);
      }
      let refsMetric = false;
      for (const ref of info.refs) {
        const at = m.exprPosition < 0 ? -1 : m.exprPosition + ref.position;
        const target = ref.qualifier === undefined ? this.members.get(lower(ref.name)) : this.memberOn(ref.qualifier, ref.name, ["metric"]);
        if (target?.kind === "metric") {
          if (lower(target.name) === lower(m.name)) this.fail(`derived metric '${m.name}' references itself`, at);
          refsMetric = true;
          continue;
        }
        const shown = ref.qualifier === undefined ? ref.name : `${ref.qualifier}.${ref.name}`;
        const what = target === undefined ? "unknown metric" : `${target.kind} (not a metric)`;
        this.fail(
          `derived metric '${m.name}' references ${what} '${shown}'. Available metrics: [${this.metricNames().filter((n) => lower(n) !== lower(m.name)).join(", ")}].${didYouMean(ref.name, this.metricNames().filter((n) => lower(n) !== lower(m.name)))}`,
          at,
        );
      }
      if (!refsMetric) this.fail(`derived metric '${m.name}' must reference at least one other metric`, m.exprPosition);
    } else {
      this.checkScope(m, info.refs, true);
      const refsMetric = info.refs.some((r) => {
        const t = r.qualifier === undefined ? this.members.get(lower(r.name)) : this.memberOn(r.qualifier, r.name, ["metric"]);
        return t?.kind === "metric" && lower(t.name) !== lower(m.name) && (r.qualifier !== undefined || this.hasColumn(m.table!, r.name) !== true);
      });
      if (info.aggregates.length === 0 && !refsMetric) {
        this.fail(`metric '${m.name}' must aggregate (e.g. SUM(${m.expr})); a row-level expression belongs in FACTS or DIMENSIONS`, m.exprPosition);
      }
    }
    return {
      name: m.name,
      table: m.table,
      expr: m.expr,
      access: m.access ?? "public",
      using: [...m.using],
      comment: m.comment,
      synonyms: [...m.synonyms],
      nonAdditiveBy: m.nonAdditiveBy !== undefined && m.nonAdditiveBy.length > 0 ? [...m.nonAdditiveBy] : undefined,
      window: m.window,
    };
  }

  /** True when `to` is `from` or below it along the relationships. */
  private reachable(from: string, to: string, rels: readonly RelationshipDef[]): boolean {
    const seen = new Set<string>([lower(from)]);
    const queue = [lower(from)];
    while (queue.length > 0) {
      const a = queue.shift()!;
      if (a === lower(to)) return true;
      for (const r of rels) {
        if (lower(r.fromAlias) === a && !seen.has(lower(r.toAlias))) {
          seen.add(lower(r.toAlias));
          queue.push(lower(r.toAlias));
        }
      }
    }
    return false;
  }

  // ---- cycles ----

  private factRefs(m: DraftMember): DraftMember[] {
    const out: DraftMember[] = [];
    for (const ref of this.analyses.get(m)!.refs) {
      let target: DraftMember | undefined;
      if (ref.qualifier !== undefined) target = this.memberOn(ref.qualifier, ref.name, ["fact"]);
      else {
        const t = this.members.get(lower(ref.name));
        // A bare name that is also a column of the fact's own table is the column.
        if (t?.kind === "fact" && this.hasColumn(m.table!, ref.name) !== true) target = t;
      }
      // `s.x AS s.x` is a passthrough of the column, not a self-reference.
      if (target !== undefined && target !== m) out.push(target);
    }
    return out;
  }

  private checkFactCycles(): void {
    this.findCycle(this.stmt.facts, (m) => this.factRefs(m), "facts");
  }

  private checkDerivedCycles(): void {
    const derived = this.stmt.metrics.filter((m) => m.table === undefined);
    this.findCycle(
      derived,
      (m) =>
        this.analyses
          .get(m)!
          .refs.map((r) => (r.qualifier === undefined ? this.members.get(lower(r.name)) : undefined))
          .filter((t): t is DraftMember => t !== undefined && t.kind === "metric" && t.table === undefined && t !== m),
      "derived metrics",
    );
  }

  private findCycle(nodes: readonly DraftMember[], edges: (m: DraftMember) => DraftMember[], what: string): void {
    const state = new Map<DraftMember, "visiting" | "done">();
    const visit = (m: DraftMember, path: DraftMember[]): void => {
      if (state.get(m) === "done") return;
      if (state.get(m) === "visiting") {
        const cycle = [...path.slice(path.indexOf(m)), m].map((x) => x.name).join(" -> ");
        this.fail(`cycle among ${what}: ${cycle}`, m.position);
      }
      state.set(m, "visiting");
      for (const e of edges(m)) visit(e, [...path, m]);
      state.set(m, "done");
    };
    for (const m of nodes) visit(m, []);
  }
}
