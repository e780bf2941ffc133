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
import { median } from "./bench-harness.js";
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

/** An N-table chain t0 → t1 → ... (each references the next: the deepest tree N tables make), a dimension per table. */
function chainViewSql(n: number): string {
  const tables = Array.from({ length: n }, (_, i) => `t${i} AS scale_j${i} PRIMARY KEY (id)`).join(", ");
  const rels = Array.from({ length: n - 1 }, (_, i) => `r${i} AS t${i} (next_id) REFERENCES t${i + 1}`).join(", ");
  const dims = Array.from({ length: n }, (_, i) => `t${i}.d${i} AS t${i}.v`).join(", ");
  return `CREATE OR REPLACE SEMANTIC VIEW scale_chain AS TABLES (${tables}) RELATIONSHIPS (${rels}) DIMENSIONS (${dims}) METRICS (t0.n AS COUNT(*), t0.total AS SUM(t0.v))`;
}

/**
 * A view joining N tables: its CREATE, the first query after it (definition load, expansion, type
 * probe, prepare), the same query repeated (the connection's memo), and the expansion alone.
 */
async function joinGraph(conn: PooledConnection, sizes: readonly number[], runs: number) {
  const curves = { create: [] as Point[], first: [] as Point[], repeated: [] as Point[], expand: [] as Point[] };
  let made = 0;
  for (const n of sizes) {
    for (; made < n; made++) {
      await conn.run(`CREATE OR REPLACE TABLE scale_j${made} (id INTEGER PRIMARY KEY, next_id INTEGER, v INTEGER)`);
      await conn.run(`INSERT INTO scale_j${made} SELECT i, i, i FROM range(1, 11) t(i)`);
    }
    const create = chainViewSql(n);
    const dims = Array.from({ length: n }, (_, i) => `'d${i}'`).join(", ");
    const query = `SELECT * FROM semantic_view('scale_chain', dimensions := [${dims}], metrics := ['n', 'total'])`;
    const first: number[] = [];
    const repeated: number[] = [];
    for (let i = 0; i <= runs; i++) {
      await conn.run(create);
      await conn.commit();
      let started = performance.now();
      await conn.all(query);
      if (i > 0) first.push(performance.now() - started); // the first round warms up
      started = performance.now();
      await conn.all(query);
      if (i > 0) repeated.push(performance.now() - started);
    }
    curves.create.push({ size: n, ms: await timed(runs, () => conn.run(create)) });
    curves.first.push({ size: n, ms: median(first) });
    curves.repeated.push({ size: n, ms: median(repeated) });
    const def = chainDefinition(n);
    const request = { dimensions: def.dimensions.map((d) => d.name), metrics: ["n", "total"], facts: [] };
    let bytes = 0;
    const ms = await timed(Math.max(runs, 5), () => {
      bytes = expandSemanticQuery(def, request).sql.length;
    });
    curves.expand.push({ size: n, ms, extra: `${bytes.toLocaleString("en-US")} B` });
  }
  return curves;
}

function chainDefinition(n: number): SemanticViewDefinition {
  const member = (i: number) => ({
    name: `d${i}`,
    table: `t${i}`,
    expr: `t${i}.v`,
    access: "public" as const,
    synonyms: [],
  });
  return {
    name: "scale_chain",
    databaseName: "memory",
    schemaName: "main",
    createdOn: "2026-01-01T00:00:00Z",
    tables: Array.from({ length: n }, (_, i) => ({
      alias: `t${i}`,
      table: `scale_j${i}`,
      primaryKey: ["id"],
      unique: [],
      synonyms: [],
    })),
    relationships: Array.from({ length: n - 1 }, (_, i) => ({
      name: `r${i}`,
      fromAlias: `t${i}`,
      fkColumns: ["next_id"],
      toAlias: `t${i + 1}`,
      refColumns: ["id"],
      cardinality: "many_to_one" as const,
    })),
    facts: [],
    dimensions: Array.from({ length: n }, (_, i) => member(i)),
    metrics: [
      { name: "n", table: "t0", expr: "COUNT(*)", access: "public", using: [], synonyms: [] },
      { name: "total", table: "t0", expr: "SUM(t0.v)", access: "public", using: [], synonyms: [] },
    ],
  };
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
    const chainSizes = settings.quick ? [10, 50] : [10, 25, 50, 100, 200];
    const joins = await joinGraph(conn, chainSizes, runs);
    printCurve("CREATE of a view over a chain of N tables (a dimension each)", "table", joins.create);
    printCurve("First query joining all N tables (after CREATE: load, expand, probe, run)", "table", joins.first);
    printCurve("The same query repeated", "table", joins.repeated);
    printCurve("Expansion alone of that request (N dimensions, N tables)", "table", joins.expand, "sql");
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
