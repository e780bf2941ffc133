/**
 * Member SQL: facts inlined into the expressions that use them, derived metrics inlined over the
 * base metrics they combine.
 */
import { identEquals } from "../sql/quote.js";
import type { MemberDef, MetricDef } from "../view-definition.js";
import { type ExpandContext } from "./context.js";
import { rewriteReferences } from "../sql/references.js";

export class MemberSql {
  private readonly factSql = new Map<MemberDef, string>();

  constructor(private readonly ctx: ExpandContext) {}

  /** A fact or dimension expression with facts inlined. */
  of(m: MemberDef): string {
    return this.inlineFacts(m.expr, m.table, [m]);
  }

  /** Inlines `alias.fact` (and bare facts of the owner table) as `(expr)`, in dependency order. */
  inlineFacts(expr: string, owner: string, stack: readonly MemberDef[]): string {
    return rewriteReferences(expr, (ref) => {
      const table = ref.qualifier ?? owner;
      const fact = this.ctx.def.facts.find((f) => identEquals(f.name, ref.name) && identEquals(f.table, table));
      if (fact === undefined) return undefined;
      // `s.x AS s.x`: the fact names its own column.
      if (stack[stack.length - 1] === fact) return undefined;
      if (stack.includes(fact)) this.ctx.fail(`cycle in facts through '${fact.name}'`);
      let sql = this.factSql.get(fact);
      if (sql === undefined) {
        sql = this.inlineFacts(fact.expr, fact.table, [...stack, fact]);
        this.factSql.set(fact, sql);
      }
      return `(${sql})`;
    });
  }

  /** Base metrics a metric depends on (itself if it is one). */
  baseMetricsOf(m: MetricDef, stack: readonly MetricDef[] = []): MetricDef[] {
    if (m.table !== undefined) return [m];
    if (stack.includes(m)) this.ctx.fail(`cycle in derived metrics through '${m.name}'`);
    const out: MetricDef[] = [];
    rewriteReferences(m.expr, (ref) => {
      const dep = this.metricRef(ref.qualifier, ref.name);
      if (dep !== undefined) for (const b of this.baseMetricsOf(dep, [...stack, m])) if (!out.includes(b)) out.push(b);
      return undefined;
    });
    return out;
  }

  metricRef(qualifier: string | undefined, name: string): MetricDef | undefined {
    return this.ctx.def.metrics.find(
      (x) => identEquals(x.name, name) && (qualifier === undefined ? true : identEquals(x.table, qualifier)),
    );
  }

  /** A metric's SQL with derived metrics inlined over `base(b)` for each base metric. */
  renderMetric(m: MetricDef, base: (b: MetricDef) => string, stack: readonly MetricDef[] = []): string {
    if (m.table !== undefined) return base(m);
    if (stack.includes(m)) this.ctx.fail(`cycle in derived metrics through '${m.name}'`);
    return rewriteReferences(m.expr, (ref) => {
      const dep = this.metricRef(ref.qualifier, ref.name);
      if (dep === undefined) return undefined;
      const inner = this.renderMetric(dep, base, [...stack, m]);
      return dep.table === undefined ? `(${inner})` : inner;
    });
  }
}
