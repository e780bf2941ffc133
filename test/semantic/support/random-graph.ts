/**
 * Random relationship trees for the differential test, and an oracle that answers requests over
 * them with plain SQL written from the rules in the extension's docs (not from our expander):
 * - a metric may not reach a queried dimension by stepping from a referenced row to the rows
 *   referencing it (a fan trap);
 * - when every metric table reaches every joined table without such a step, the answer is one
 *   base-anchored LEFT JOIN grouped by the dimensions (aggregates skip NULL-extended rows);
 * - otherwise each metric is aggregated over its own table and the dimension groups of all grains
 *   are united, a grain without rows for a group giving NULL;
 * - members listed (dimensions, or dimensions and metric tables) all on one table below the base
 *   count only that table's real rows: a base row without rows there is no row, no group.
 */
import { quoteLiteral } from "../../../runtime/semantic/sql/quote.js";
import { pick } from "./random-choice.js";

export interface GraphEdge {
  /** Index of the table holding the FK. */
  readonly from: number;
  /** Index of the referenced table. */
  readonly to: number;
}

export interface RandomGraph {
  readonly prefix: string;
  readonly size: number;
  /** TABLES order: the first is the base table. */
  readonly order: readonly number[];
  readonly edges: readonly GraphEdge[];
  /** The derived metric `combo AS n<count> * 1000 + s<sum>` spans these two tables' grains. */
  readonly combo: { readonly count: number; readonly sum: number };
}

interface Step {
  readonly edge: GraphEdge;
  readonly parent: number;
  readonly child: number;
  /** Stepping from the referenced row to the rows referencing it. */
  readonly fans: boolean;
}

const alias = (i: number): string => `t${i}`;
const fkColumn = (to: number): string => `ref_t${to}`;
export const dimensionName = (i: number): string => `cat${i}`;
export const countName = (i: number): string => `n${i}`;
export const sumName = (i: number): string => `s${i}`;

/** A random tree over 3..5 tables, each edge pointing either way, the base table anywhere. */
export function randomGraph(random: () => number, prefix: string): RandomGraph {
  const size = 3 + Math.floor(random() * 3);
  const edges: GraphEdge[] = [];
  for (let i = 1; i < size; i++) {
    const other = Math.floor(random() * i);
    edges.push(random() < 0.5 ? { from: i, to: other } : { from: other, to: i });
  }
  const order = Array.from({ length: size }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const combo = { count: Math.floor(random() * size), sum: Math.floor(random() * size) };
  return { prefix, size, order, edges, combo };
}

/** A non-base table referenced from two different tables: the extension's diamond. */
export function diamondTable(g: RandomGraph): number | undefined {
  for (let t = 0; t < g.size; t++) {
    if (t === g.order[0]) continue;
    if (new Set(g.edges.filter((e) => e.to === t).map((e) => e.from)).size > 1) return t;
  }
  return undefined;
}

export function setupSql(g: RandomGraph, random: () => number): string[] {
  const out: string[] = [];
  for (let t = 0; t < g.size; t++) {
    const refs = g.edges.filter((e) => e.from === t).map((e) => e.to);
    out.push(
      `CREATE TABLE ${g.prefix}_t${t} (id INTEGER, cat VARCHAR, val INTEGER${refs.map((r) => `, ${fkColumn(r)} INTEGER`).join("")})`,
    );
    const rows: string[] = [];
    const count = 4 + Math.floor(random() * 6);
    for (let id = 1; id <= count; id++) {
      const cat = random() < 0.15 ? "NULL" : quoteLiteral(pick(random, ["a", "b", "c"]));
      const val = random() < 0.1 ? "NULL" : String(Math.floor(random() * 100));
      // FK values: mostly an existing row of a 4..9-row table, sometimes dangling or NULL.
      const fks = refs.map(() => (random() < 0.1 ? "NULL" : String(1 + Math.floor(random() * 10))));
      rows.push(`(${[id, cat, val, ...fks].join(", ")})`);
    }
    out.push(`INSERT INTO ${g.prefix}_t${t} VALUES ${rows.join(", ")}`);
  }
  return out;
}

export function createViewSql(g: RandomGraph, name: string): string {
  const tables = g.order.map((t) => `${alias(t)} AS ${g.prefix}_t${t} PRIMARY KEY (id)`);
  const rels = g.edges.map(
    (e) => `r_${e.from}_${e.to} AS ${alias(e.from)}(${fkColumn(e.to)}) REFERENCES ${alias(e.to)}`,
  );
  const dims = g.order.map((t) => `${alias(t)}.${dimensionName(t)} AS ${alias(t)}.cat`);
  const metrics = g.order.flatMap((t) => [
    `${alias(t)}.${countName(t)} AS COUNT(*)`,
    `${alias(t)}.${sumName(t)} AS SUM(${alias(t)}.val)`,
  ]);
  metrics.push(`combo AS ${countName(g.combo.count)} * 1000 + ${sumName(g.combo.sum)}`);
  return `CREATE SEMANTIC VIEW ${name} AS TABLES (${tables.join(", ")}) RELATIONSHIPS (${rels.join(", ")}) DIMENSIONS (${dims.join(", ")}) METRICS (${metrics.join(", ")})`;
}

/** Breadth-first tree from an anchor over the undirected edges. */
function treeFrom(g: RandomGraph, anchor: number): Map<number, Step> {
  const steps = new Map<number, Step>();
  const seen = new Set([anchor]);
  const queue = [anchor];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const edge of g.edges) {
      const child = edge.from === node ? edge.to : edge.to === node ? edge.from : undefined;
      if (child === undefined || seen.has(child)) continue;
      seen.add(child);
      steps.set(child, { edge, parent: node, child, fans: edge.to === node });
      queue.push(child);
    }
  }
  return steps;
}

function path(g: RandomGraph, from: number, to: number): Step[] {
  const steps = treeFrom(g, from);
  const out: Step[] = [];
  for (let cur = to; cur !== from; cur = steps.get(cur)!.parent) out.unshift(steps.get(cur)!);
  return out;
}

const fans = (g: RandomGraph, from: number, to: number): boolean => path(g, from, to).some((s) => s.fans);

/** True when following foreign keys from `t` reaches `base` (t is at a finer grain). */
function below(g: RandomGraph, t: number, base: number): boolean {
  const seen = new Set<number>();
  const queue = [t];
  while (queue.length > 0) {
    const cur = queue.shift()!;
    if (seen.has(cur)) continue;
    seen.add(cur);
    for (const e of g.edges) {
      if (e.from !== cur) continue;
      if (e.to === base) return true;
      queue.push(e.to);
    }
  }
  return false;
}

/** ` WHERE t.id IS NOT NULL` when the listed tables are one table below the base, else "". */
function phantomGuard(g: RandomGraph, base: number, listed: readonly number[]): string {
  const only = new Set(listed);
  const [t] = [...only];
  return only.size === 1 && t !== base && below(g, t!, base) ? ` WHERE ${alias(t!)}.id IS NOT NULL` : "";
}

/** FROM clause anchored at `anchor`, joining every table on the way to `needed`. */
function fromClause(g: RandomGraph, anchor: number, needed: readonly number[]): string {
  const joined: Step[] = [];
  for (const t of needed)
    for (const s of path(g, anchor, t))
      if (!joined.includes(s) && !joined.some((j) => j.child === s.child)) joined.push(s);
  const depth = (s: Step): number => path(g, anchor, s.child).length;
  joined.sort((a, b) => depth(a) - depth(b));
  let sql = `FROM ${g.prefix}_t${anchor} AS ${alias(anchor)}`;
  for (const s of joined) {
    sql += ` LEFT JOIN ${g.prefix}_t${s.child} AS ${alias(s.child)} ON ${alias(s.edge.from)}.${fkColumn(s.edge.to)} = ${alias(s.edge.to)}.id`;
  }
  return sql;
}

/** A base metric of one table, or the view's derived `combo` (table unused). */
export type RandomMetric =
  { readonly table: number; readonly kind: "count" | "sum" } | { readonly table: -1; readonly kind: "combo" };

export interface RandomRequest {
  readonly dims: readonly number[];
  readonly metrics: readonly RandomMetric[];
}

export const metricName = (m: RandomMetric): string =>
  m.kind === "combo" ? "combo" : m.kind === "count" ? countName(m.table) : sumName(m.table);

/** Either the fan-trap error the request must raise, or the SQL that answers it. */
export function oracle(g: RandomGraph, req: RandomRequest): { fanTrap: true } | { fanTrap: false; sql: string } {
  const base = g.order[0]!;
  const dimSql = req.dims.map((d) => `${alias(d)}.cat`);
  const bases = (m: RandomMetric): { table: number; kind: "count" | "sum" }[] =>
    m.kind === "combo"
      ? [
          { table: g.combo.count, kind: "count" },
          { table: g.combo.sum, kind: "sum" },
        ]
      : [m];
  const metricTables = [...new Set(req.metrics.flatMap(bases).map((m) => m.table))];
  if (metricTables.some((m) => req.dims.some((d) => fans(g, m, d)))) return { fanTrap: true };
  const baseAggregate = (m: { table: number; kind: "count" | "sum" }, anchor: number): string => {
    const guarded = m.table !== anchor;
    if (m.kind === "count") return guarded ? `COUNT(${alias(m.table)}.id)` : "COUNT(*)";
    return `SUM(${alias(m.table)}.val)`; // val of a NULL-extended row is NULL already
  };
  /** A requested metric over `part(b)` for each base metric it needs. */
  const compose = (m: RandomMetric, part: (b: { table: number; kind: "count" | "sum" }) => string): string =>
    m.kind === "combo" ? `(${part(bases(m)[0]!)}) * 1000 + (${part(bases(m)[1]!)})` : part(m);
  const select = (items: string[]): string => items.join(", ");

  if (req.metrics.length === 0) {
    const where = phantomGuard(g, base, req.dims);
    return {
      fanTrap: false,
      sql: `SELECT DISTINCT ${select(dimSql)} ${fromClause(g, base, req.dims)}${where} ORDER BY ALL`,
    };
  }

  const needed = [...req.dims, ...metricTables];
  const joined = new Set<number>([base]);
  for (const t of needed) for (const s of path(g, base, t)) joined.add(s.child);
  const singleGrain = metricTables.every((m) => [...joined].every((t) => !fans(g, m, t)));
  if (singleGrain) {
    const group = req.dims.length > 0 ? ` GROUP BY ${dimSql.join(", ")}` : "";
    const where = phantomGuard(g, base, needed);
    return {
      fanTrap: false,
      sql: `SELECT ${select([...dimSql, ...req.metrics.map((m) => compose(m, (b) => baseAggregate(b, base)))])} ${fromClause(g, base, needed)}${where}${group} ORDER BY ALL`,
    };
  }

  // Per grain: groups united over every metric table; each metric from its own table's rows.
  const grainFrom = (m: number): string => fromClause(g, m, [m, ...req.dims]);
  if (req.dims.length === 0) {
    return {
      fanTrap: false,
      sql: `SELECT ${select(req.metrics.map((m) => compose(m, (b) => `(SELECT ${baseAggregate(b, b.table)} ${grainFrom(b.table)})`)))}`,
    };
  }
  const keyNames = req.dims.map((_, i) => `k${i}`);
  const keys = metricTables
    .map((m) => `SELECT DISTINCT ${dimSql.map((d, i) => `${d} AS ${keyNames[i]}`).join(", ")} ${grainFrom(m)}`)
    .join(" UNION ");
  const match = req.dims.map((_, i) => `${dimSql[i]} IS NOT DISTINCT FROM keys.${keyNames[i]}`).join(" AND ");
  const cell = (b: { table: number; kind: "count" | "sum" }): string =>
    `CASE WHEN EXISTS (SELECT 1 ${grainFrom(b.table)} WHERE ${match}) THEN (SELECT ${baseAggregate(b, b.table)} ${grainFrom(b.table)} WHERE ${match}) END`;
  return {
    fanTrap: false,
    sql: `SELECT ${select([...keyNames.map((k) => `keys.${k}`), ...req.metrics.map((m) => compose(m, cell))])} FROM (${keys}) AS keys ORDER BY ALL`,
  };
}
