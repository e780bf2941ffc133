/**
 * "join-shape" (issue 25, expanded SQL shape): a star schema with a 2,000,000-row fact table
 * (`--quick`: 400,000) — orders → customers (100,000) → regions (20), orders → products (5,000) —
 * queried through lib's engine (`semantic_view()` on a pooled connection, nested joins; the same
 * where_clause values every run: the first run binds them into the filter's shape, later ones run its
 * literal form, whose plan DuckDB keeps) against the same question written by hand with nested LEFT JOINs and
 * with chained LEFT JOINs, plus lib's expansion run as plain SQL (its values as literals: the shape
 * alone) and the SQL the engine ran before (the extension's chained layout, as `explain_semantic_view`
 * prints it). All run interleaved on one connection (the starting one rotates); medians of wall time
 * and of CPU time (the process's, which DuckDB's threads count in: steadier under load), and ratios.
 */
import { BackendCConfig, createEngine, type PooledConnection } from "lib";
import { expandSemanticQuery, type SemanticQueryRequest } from "../../runtime/semantic/expand/expand.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { median, printTable, formatTime } from "./bench-harness.js";
import type { BenchSettings } from "./bench-settings.js";
import { wallAndCpu } from "./scale-curve.js";
import { starSchemaSql } from "./star-schema.js";

const VIEW = `CREATE SEMANTIC VIEW shape AS
  TABLES (o AS js_orders PRIMARY KEY (id), c AS js_customers PRIMARY KEY (id), r AS js_regions PRIMARY KEY (id),
          p AS js_products PRIMARY KEY (id))
  RELATIONSHIPS (oc AS o(customer_id) REFERENCES c, cr AS c(region_id) REFERENCES r, op AS o(product_id) REFERENCES p)
  DIMENSIONS (c.segment AS c.segment, r.region_name AS r.name, p.category AS p.category, o.status AS o.status)
  METRICS (o.revenue AS SUM(o.amount), o.order_count AS COUNT(*))`;

const C = "LEFT JOIN js_customers c ON o.customer_id = c.id";
const R = "LEFT JOIN js_regions r ON c.region_id = r.id";
const P = "LEFT JOIN js_products p ON o.product_id = p.id";
const CR = "LEFT JOIN (js_customers c LEFT JOIN js_regions r ON c.region_id = r.id) ON o.customer_id = c.id";

interface ShapeCase {
  readonly label: string;
  readonly args: string;
  readonly request: SemanticQueryRequest;
  /** The hand-written query with `{joins}` where its FROM's joins go. */
  readonly hand: string;
  readonly chain: string;
  readonly nested: string;
}

const CASES: ShapeCase[] = [
  {
    label: "filter on a two-hop dimension",
    args: `dimensions := ['segment'], metrics := ['revenue', 'order_count'], where_clause := 'region_name = ''region_3'''`,
    request: {
      dimensions: ["segment"],
      metrics: ["revenue", "order_count"],
      facts: [],
      whereClause: "region_name = 'region_3'",
    },
    hand: `SELECT c.segment, SUM(o.amount), COUNT(*) FROM js_orders o {joins} WHERE r.name = 'region_3' GROUP BY 1`,
    chain: `${C} ${R}`,
    nested: CR,
  },
  {
    label: "two-hop filter, rows (DISTINCT)",
    args: `dimensions := ['status', 'category'], where_clause := 'region_name IN (''region_3'', ''region_4'')'`,
    request: {
      dimensions: ["status", "category"],
      metrics: [],
      facts: [],
      whereClause: "region_name IN ('region_3', 'region_4')",
    },
    hand: `SELECT DISTINCT o.status, p.category FROM js_orders o {joins} WHERE r.name IN ('region_3', 'region_4')`,
    chain: `${C} ${P} ${R}`,
    nested: `${CR} ${P}`,
  },
  {
    label: "group by a two-hop dimension",
    args: `dimensions := ['region_name'], metrics := ['revenue']`,
    request: { dimensions: ["region_name"], metrics: ["revenue"], facts: [] },
    hand: `SELECT r.name, SUM(o.amount) FROM js_orders o {joins} GROUP BY 1`,
    chain: `${C} ${R}`,
    nested: CR,
  },
];

async function seed(conn: PooledConnection, rows: number): Promise<void> {
  for (const sql of starSchemaSql("js", rows)) await conn.run(sql);
  await conn.run(VIEW);
  // Committed rows are scanned with their statistics (zone maps, dynamic filters); uncommitted ones are not.
  await conn.commit();
}

/** The expanded SQL as explain_semantic_view prints it: the engine's previous (chained) layout. */
async function chainedExpansion(conn: PooledConnection, args: string): Promise<string> {
  const lines = (await conn.all(`SELECT explain_output FROM explain_semantic_view('shape', ${args})`)).map((r) =>
    String(r["explain_output"]),
  );
  return lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:") - 1).join("\n");
}

/** The view's stored definition (the catalog row CREATE wrote), for expanding it outside a query. */
async function definition(conn: PooledConnection): Promise<SemanticViewDefinition> {
  const rows = await conn.all("SELECT definition FROM semantic_layer._definitions WHERE name = 'shape'");
  return JSON.parse(String(rows[0]!["definition"])) as SemanticViewDefinition;
}

type Sample = Awaited<ReturnType<typeof wallAndCpu>>;

export async function runJoinShape(settings: BenchSettings): Promise<void> {
  const rows = settings.quick ? 400_000 : 2_000_000;
  const runs = settings.quick ? 11 : 15;
  console.log(
    `\njoin-shape (${rows.toLocaleString("en-US")} order rows → 100,000 customers → 20 regions, 5,000 products; median of ${runs} interleaved runs)`,
  );
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  try {
    await using conn = await engine.connect();
    await seed(conn, rows);
    const def = await definition(conn);
    const table: string[][] = [];
    const cpuTable: string[][] = [];
    for (const c of CASES) {
      const variants = [
        { name: "lib", sql: `SELECT * FROM semantic_view('shape', ${c.args})` },
        { name: "lib's expansion", sql: expandSemanticQuery(def, c.request).sql },
        { name: "lib before (chain)", sql: await chainedExpansion(conn, c.args) },
        { name: "hand nested", sql: c.hand.replace("{joins}", c.nested) },
        { name: "hand chain", sql: c.hand.replace("{joins}", c.chain) },
      ];
      const samples = variants.map(() => [] as Sample[]);
      for (const v of variants) await conn.all(v.sql); // warm-up
      for (let i = 0; i < runs; i++) {
        for (let j = 0; j < variants.length; j++) {
          const k = (i + j) % variants.length;
          samples[k]!.push(await wallAndCpu(() => conn.all(variants[k]!.sql)));
        }
      }
      for (const [out, of] of [
        [table, (s: Sample) => s.ms],
        [cpuTable, (s: Sample) => s.cpu],
      ] as const) {
        const [lib, expansion, before, nested, chain] = samples.map((list) => median(list.map(of))) as [
          number,
          number,
          number,
          number,
          number,
        ];
        out.push([
          c.label,
          ...[lib, expansion, before, nested, chain].map((ms) => formatTime(ms * 1000)),
          ...[lib, expansion, before, chain].map((ms) => `${(ms / nested).toFixed(2)}x`),
        ]);
      }
    }
    const headers = [
      "case",
      "lib",
      "lib's expansion",
      "lib before",
      "hand nested",
      "hand chain",
      "lib/nested",
      "expansion/nested",
      "before/nested",
      "chain/nested",
    ];
    console.log("wall time");
    printTable(headers, table);
    console.log("\nCPU time (process: JS and DuckDB's threads)");
    printTable(headers, cpuTable);
  } finally {
    await engine.dispose();
  }
}
