/**
 * "engine-scale": scale curves of the built-in semantic engine (issues 22 and 25), printed as
 * tables (size → time, time per unit, and the step from the previous size): CREATE of a view with
 * 1k–10k members, CREATE of a 10-table view in a database of 1–400 tables, and the first query of a
 * view whose facts and derived metrics each use the previous one twice (SQL bytes per level).
 * A step well above the size ratio flags a super-linear curve.
 */
import { BackendCConfig, createEngine, type PooledConnection } from "lib";
import { expandSemanticQuery } from "../../runtime/semantic/expand/expand.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { printCurve, timed, type Point } from "./scale-curve.js";
import type { BenchSettings } from "./bench-settings.js";

async function createMembers(conn: PooledConnection, sizes: readonly number[], runs: number): Promise<Point[]> {
  await conn.run("CREATE OR REPLACE TABLE scale_w (id INTEGER PRIMARY KEY, a INTEGER)");
  const points: Point[] = [];
  for (const n of sizes) {
    const dims = Array.from({ length: n }, (_, i) => `w.d${i} AS w.a + ${i}`).join(", ");
    const sql = `CREATE OR REPLACE SEMANTIC VIEW scale_wide AS TABLES (w AS scale_w PRIMARY KEY (id)) DIMENSIONS (${dims}) METRICS (w.n AS COUNT(*))`;
    points.push({ size: n, ms: await timed(runs, () => conn.run(sql).then(() => undefined)) });
  }
  return points;
}

async function createInWideDatabase(conn: PooledConnection, sizes: readonly number[], runs: number): Promise<Point[]> {
  const points: Point[] = [];
  let made = 0;
  const tables = Array.from({ length: 10 }, (_, i) => `t${i} AS scale_t${i} PRIMARY KEY (id)`).join(", ");
  const rels = Array.from({ length: 9 }, (_, i) => `r${i + 1} AS t${i + 1} (parent_id) REFERENCES t${i}`).join(", ");
  const sql = `CREATE OR REPLACE SEMANTIC VIEW scale_graph AS TABLES (${tables}) RELATIONSHIPS (${rels}) METRICS (t0.n AS COUNT(*))`;
  for (const n of sizes) {
    for (; made < n; made++) {
      await conn.run(`CREATE OR REPLACE TABLE scale_t${made} (id INTEGER PRIMARY KEY, parent_id INTEGER, v INTEGER)`);
    }
    points.push({ size: n, ms: await timed(runs, () => conn.run(sql).then(() => undefined)) });
  }
  return points;
}

function doublingView(levels: number): SemanticViewDefinition {
  const facts = [{ name: "f0", table: "o", expr: "o.amount", access: "public" as const, synonyms: [] }];
  const metrics = [{ name: "m0", table: "o", expr: "SUM(o.f0)", access: "public" as const, using: [], synonyms: [] }];
  for (let i = 1; i <= levels; i++) {
    facts.push({ name: `f${i}`, table: "o", expr: `o.f${i - 1} + o.f${i - 1}`, access: "public", synonyms: [] });
    metrics.push({
      name: `m${i}`,
      table: undefined!,
      expr: `m${i - 1} + m${i - 1}`,
      access: "public",
      using: [],
      synonyms: [],
    });
  }
  return {
    name: "doubling",
    databaseName: "memory",
    schemaName: "main",
    createdOn: "2026-01-01T00:00:00Z",
    tables: [{ alias: "o", table: "orders", primaryKey: ["id"], unique: [], synonyms: [] }],
    relationships: [],
    facts,
    dimensions: [{ name: "top", table: "o", expr: `o.f${levels}`, access: "public", synonyms: [] }],
    metrics,
  };
}

async function expansionDepth(levels: readonly number[], runs: number): Promise<Point[]> {
  const points: Point[] = [];
  for (const n of levels) {
    const def = doublingView(n);
    const request = { dimensions: ["top"], metrics: [`m${n}`], facts: [] };
    let bytes = 0;
    const ms = await timed(runs, async () => {
      bytes = expandSemanticQuery(def, request).sql.length;
    });
    points.push({ size: n, ms, extra: `${bytes.toLocaleString("en-US")} B` });
  }
  return points;
}

export async function runEngineScale(settings: BenchSettings): Promise<void> {
  const runs = settings.quick ? 1 : 3;
  console.log(`\nengine-scale (built-in semantic engine; median of ${runs} run(s) per size)`);
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  try {
    await using conn = await engine.connect();
    const memberSizes = settings.quick ? [1000, 4000] : [1000, 2500, 5000, 10000];
    printCurve("CREATE SEMANTIC VIEW with N dimensions", "member", await createMembers(conn, memberSizes, runs));
    const tableSizes = settings.quick ? [10, 100] : [10, 50, 200, 400];
    printCurve(
      "CREATE of a 10-table view in a database of N tables",
      "table",
      await createInWideDatabase(conn, tableSizes, runs),
    );
  } finally {
    await engine.dispose();
  }
  const depths = settings.quick ? [8, 16, 26] : [8, 12, 16, 20, 26];
  printCurve(
    "Expansion of a doubling chain of N levels (SQL size)",
    "level",
    await expansionDepth(depths, runs),
    "sql",
  );
}
