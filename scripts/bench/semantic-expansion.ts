/**
 * Benchmark of the built-in semantic-view engine:
 *  1. expansion time per request (µs, pure compile, many iterations);
 *  2. typed-query preparation with and without the probe cache;
 *  3. run time of the expanded SQL vs the equivalent hand-written SQL on a generated star schema
 *     (median of N interleaved runs, and the ratio; target within 5%).
 * Run: npx tsx scripts/bench/semantic-expansion.ts [--rows 3000000] [--runs 9]
 */
import { pathToFileURL } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { expandSemanticQuery, type SemanticQueryRequest } from "../../runtime/semantic/expand/expand.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { clearSemanticQueryCache, typedSemanticQuery } from "../../runtime/semantic/call/typed-query.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import type { RawColumn, SqlSession } from "../../runtime/semantic/semantic-layer.js";
import { starSchemaSql, type OrderColumn } from "./star-schema.js";

/** The order columns this bench's metrics and filters use beyond the star schema's own. */
const EXTRA_ORDER_COLUMNS: readonly OrderColumn[] = [
  { name: "qty", sql: "(1 + hash(i * 13) % 20)::INTEGER" },
  { name: "discount", sql: "((hash(i * 19) % 2000) / 100.0)::DECIMAL(12,2)" },
  { name: "day", sql: "DATE '2022-01-01' + (i % 1000)::INTEGER" },
];

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

const member = (table: string, name: string, expr: string) => ({
  name,
  table,
  expr,
  access: "public" as const,
  synonyms: [],
});
const metric = (table: string | undefined, name: string, expr: string) => ({
  name,
  table,
  expr,
  access: "public" as const,
  using: [],
  synonyms: [],
});

const view: SemanticViewDefinition = {
  name: "bench",
  databaseName: "memory",
  schemaName: "main",
  createdOn: "2026-01-01T00:00:00Z",
  tables: [
    { alias: "o", table: "b_orders", primaryKey: ["id"], unique: [], synonyms: [] },
    { alias: "c", table: "b_customers", primaryKey: ["id"], unique: [], synonyms: [] },
    { alias: "p", table: "b_products", primaryKey: ["id"], unique: [], synonyms: [] },
    { alias: "r", table: "b_regions", primaryKey: ["id"], unique: [], synonyms: [] },
  ],
  relationships: [
    {
      name: "oc",
      fromAlias: "o",
      fkColumns: ["customer_id"],
      toAlias: "c",
      refColumns: ["id"],
      cardinality: "many_to_one",
    },
    {
      name: "op",
      fromAlias: "o",
      fkColumns: ["product_id"],
      toAlias: "p",
      refColumns: ["id"],
      cardinality: "many_to_one",
    },
    {
      name: "cr",
      fromAlias: "c",
      fkColumns: ["region_id"],
      toAlias: "r",
      refColumns: ["id"],
      cardinality: "many_to_one",
    },
  ],
  facts: [member("o", "net", "o.amount - o.discount")],
  dimensions: [
    member("c", "segment", "c.segment"),
    member("r", "region_name", "r.name"),
    member("p", "category", "p.category"),
    member("o", "status", "o.status"),
    member("o", "order_month", "date_trunc('month', o.day)"),
  ],
  metrics: [
    metric("o", "revenue", "SUM(o.amount)"),
    metric("o", "units", "SUM(o.qty)"),
    metric("o", "order_count", "COUNT(*)"),
    metric("o", "net_revenue", "SUM(o.net)"),
    metric(undefined, "avg_net", "net_revenue / order_count"),
  ],
};

interface Case {
  readonly label: string;
  readonly request: SemanticQueryRequest;
  readonly hand: string;
}

const JOIN_C = "LEFT JOIN b_customers c ON o.customer_id = c.id";
const JOIN_R = "LEFT JOIN b_regions r ON c.region_id = r.id";
const JOIN_P = "LEFT JOIN b_products p ON o.product_id = p.id";
const CASES: Case[] = [
  {
    label: "by region (2-level join)",
    request: { dimensions: ["region_name"], metrics: ["revenue", "order_count"], facts: [] },
    hand: `SELECT r.name, SUM(o.amount), COUNT(*) FROM b_orders o ${JOIN_C} ${JOIN_R} GROUP BY r.name`,
  },
  {
    label: "by category, status",
    request: { dimensions: ["category", "status"], metrics: ["units", "revenue"], facts: [] },
    hand: `SELECT p.category, o.status, SUM(o.qty), SUM(o.amount) FROM b_orders o ${JOIN_P} GROUP BY p.category, o.status`,
  },
  {
    label: "by month, filtered, derived",
    request: {
      dimensions: ["order_month", "segment"],
      metrics: ["net_revenue", "avg_net"],
      facts: [],
      whereClause: "status <> 'void' AND net > 10",
    },
    hand: `SELECT date_trunc('month', o.day), c.segment, SUM(o.amount - o.discount), SUM(o.amount - o.discount) / COUNT(*)
           FROM b_orders o ${JOIN_C} WHERE o.status <> 'void' AND (o.amount - o.discount) > 10 GROUP BY 1, 2`,
  },
  {
    label: "grand total",
    request: { dimensions: [], metrics: ["revenue", "units", "order_count"], facts: [] },
    hand: `SELECT SUM(amount), SUM(qty), COUNT(*) FROM b_orders`,
  },
];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function table(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of cells.slice(1)) console.log(line(r));
  console.log();
}

export interface SemanticBenchOptions {
  /** Fact rows in the generated star schema (default 3,000,000). */
  readonly rows?: number;
  /** Interleaved runs per query (default 9; short queries get at least 41). */
  readonly runs?: number;
}

/** Runs the benchmark and prints its tables (importable, e.g. from scripts/bench/bench.ts). */
export async function runSemanticExpansionBench(options: SemanticBenchOptions = {}): Promise<void> {
  const ROWS = options.rows ?? 3_000_000;
  const RUNS = options.runs ?? 9;
  // 1. Expansion (pure compile).
  const expansionRows: (string | number)[][] = [];
  for (const c of CASES) {
    const iterations = 20_000;
    for (let i = 0; i < 2_000; i++) expandSemanticQuery(view, c.request); // warm-up
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) expandSemanticQuery(view, c.request);
    const us = Number(process.hrtime.bigint() - t0) / 1e3 / iterations;
    expansionRows.push([c.label, us.toFixed(1)]);
  }
  console.log(`Expansion time per request (${20_000} iterations each)`);
  table(["query", "µs/expansion"], expansionRows);

  // Data: a generated star schema.
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  await conn.run("SET threads = 2");
  const session: SqlSession = {
    async query(sql: string) {
      const reader = await conn.runAndReadAll(sql);
      const columns: RawColumn[] = reader
        .columnNames()
        .map((name, i) => ({ name, type: String(reader.columnTypes()[i]) }));
      return { columns, rows: reader.getRowsJS() as unknown[][] };
    },
  };
  const tSeed = Date.now();
  for (const sql of starSchemaSql("b", ROWS, EXTRA_ORDER_COLUMNS)) await conn.run(sql);
  console.log(
    `Generated star schema: ${ROWS.toLocaleString("en-US")} order rows, 100,000 customers, 5,000 products, 20 regions (${Date.now() - tSeed} ms)\n`,
  );

  // 2. Preparation with and without the probe cache (probe = LIMIT 0 round trip).
  const prepRows: (string | number)[][] = [];
  for (const c of CASES.slice(0, 2)) {
    const n = 200;
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      clearSemanticQueryCache();
      await typedSemanticQuery(session, view, c.request);
    }
    const cold = Number(process.hrtime.bigint() - t0) / 1e3 / n;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await typedSemanticQuery(session, view, c.request);
    const warm = Number(process.hrtime.bigint() - t0) / 1e3 / n;
    prepRows.push([c.label, cold.toFixed(1), warm.toFixed(2)]);
  }
  console.log("Typed query preparation (expand + LIMIT 0 probe), µs per call, 200 calls");
  table(["query", "uncached µs", "cached µs"], prepRows);

  // 3. Expanded vs hand-written run time.
  const catalog = { load: async () => view, names: async () => [view.name] };
  const runRows: (string | number)[][] = [];
  for (const c of CASES) {
    const args = [`'bench'`];
    if (c.request.dimensions.length)
      args.push(`dimensions := [${c.request.dimensions.map((d) => `'${d}'`).join(", ")}]`);
    if (c.request.metrics.length) args.push(`metrics := [${c.request.metrics.map((d) => `'${d}'`).join(", ")}]`);
    if (c.request.whereClause) args.push(`where_clause := '${c.request.whereClause.replace(/'/g, "''")}'`);
    const semantic = (await rewriteSemanticViewCalls(
      session,
      `SELECT * FROM semantic_view(${args.join(", ")})`,
      catalog,
    ))!;
    const timeOf = async (sql: string): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await conn.runAndReadAll(sql);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    await timeOf(semantic);
    const probe = await timeOf(c.hand); // warm-up both
    // Short queries are dominated by noise on a shared machine: give them more runs.
    const runs = probe < 50 ? Math.max(RUNS, 41) : RUNS;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Interleave (and alternate who goes first) so drift hits both equally.
      if (i % 2 === 0) {
        a.push(await timeOf(semantic));
        b.push(await timeOf(c.hand));
      } else {
        b.push(await timeOf(c.hand));
        a.push(await timeOf(semantic));
      }
    }
    const ma = median(a);
    const mb = median(b);
    runRows.push([c.label, runs, ma.toFixed(1), mb.toFixed(1), (ma / mb).toFixed(3)]);
  }
  console.log("Run time, expanded (typed, as rewritten) vs hand-written SQL (median of interleaved runs, threads = 2)");
  table(["query", "runs", "semantic ms", "hand ms", "ratio"], runRows);

  conn.closeSync();
  instance.closeSync();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSemanticExpansionBench({ rows: arg("rows", 3_000_000), runs: arg("runs", 9) });
}
