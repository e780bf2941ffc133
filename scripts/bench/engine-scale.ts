/**
 * "engine-scale": scale curves of the built-in semantic engine (issues 22 and 25), printed as
 * tables (size → time, time per unit, and the step from the previous size): CREATE of a view with
 * 1k–10k members, CREATE of a 10-table view in a database of 1–400 tables, and the first query of a
 * view whose facts and derived metrics each use the previous one twice (SQL bytes per level).
 * A step well above the size ratio flags a super-linear curve.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { BackendCConfig, createEngine, type PooledConnection } from "lib";
import { typedSemanticQuery } from "../../runtime/semantic/call/typed-query.js";
import { expandSemanticQuery } from "../../runtime/semantic/expand/expand.js";
import type { SqlSession } from "../../runtime/semantic/semantic-layer.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { formatTime, median, printTable } from "./bench-harness.js";
import { printCurve, timed, wallAndCpu, type Point } from "./scale-curve.js";
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

/** The typed SQL lib runs for the request, built by lib's own expansion and probe on the raw connection. */
async function libSql(raw: DuckDBConnection, n: number): Promise<string> {
  const session: SqlSession = {
    query: async (sql) => {
      const result = await raw.run(sql);
      const types = result.columnTypes();
      return { columns: result.columnNames().map((name, i) => ({ name, type: types[i]!.toString() })), rows: [] };
    },
  };
  const def = chainDefinition(n);
  const request = { dimensions: def.dimensions.map((d) => d.name), metrics: ["n", "total"], facts: [] };
  return (await typedSemanticQuery(session, def, request)).sql;
}

/** The same question written by hand: the chain of LEFT JOINs, grouped by every dimension. */
function handSql(n: number): string {
  const dims = Array.from({ length: n }, (_, i) => `t${i}.v AS d${i}`).join(", ");
  const joins = Array.from(
    { length: n - 1 },
    (_, i) => `LEFT JOIN scale_j${i + 1} t${i + 1} ON t${i}.next_id = t${i + 1}.id`,
  ).join(" ");
  return `SELECT ${dims}, COUNT(*) AS n, SUM(t0.v)::BIGINT AS total FROM scale_j0 t0 ${joins} GROUP BY ALL`;
}

const JOIN_CASES = ["lib first", "lib repeated", "raw, lib's SQL", "raw, prepared", "raw, hand-written"] as const;
/** Rounds of the N-table query per size: one sample of an ~80 ms query swings by a third under load. */
const MIN_JOIN_ROUNDS = 5;
type JoinCase = (typeof JOIN_CASES)[number];
type JoinRow = { size: number } & Record<JoinCase, { ms: number; cpu: number }>;

/**
 * A view joining N tables: its CREATE, the first query after it (definition load, expansion, type
 * probe, prepare), the same query repeated (the connection's memo), the expansion alone, and the raw
 * counterparts in the same rounds (interleaved): lib's very SQL planned and run, the same SQL
 * prepared once and run again (what lib's repeated query does), and a hand-written chain of LEFT
 * JOINs planned and run, on a raw connection to the same tables. At least MIN_JOIN_ROUNDS rounds.
 */
async function joinGraph(conn: PooledConnection, raw: DuckDBConnection, sizes: readonly number[], runs: number) {
  const curves = { create: [] as Point[], expand: [] as Point[], rounds: [] as JoinRow[] };
  let made = 0;
  for (const n of sizes) {
    for (; made < n; made++) {
      for (const run of [(sql: string) => conn.run(sql), (sql: string) => raw.run(sql)]) {
        await run(`CREATE OR REPLACE TABLE scale_j${made} (id INTEGER PRIMARY KEY, next_id INTEGER, v INTEGER)`);
        await run(`INSERT INTO scale_j${made} SELECT i, i, i FROM range(1, 11) t(i)`);
      }
    }
    const create = chainViewSql(n);
    const dims = Array.from({ length: n }, (_, i) => `'d${i}'`).join(", ");
    const query = `SELECT * FROM semantic_view('scale_chain', dimensions := [${dims}], metrics := ['n', 'total'])`;
    const sameSql = await libSql(raw, n);
    const prepared = await raw.prepare(sameSql);
    const hand = handSql(n);
    const samples = new Map(JOIN_CASES.map((c) => [c, [] as { ms: number; cpu: number }[]]));
    for (let i = 0; i <= Math.max(runs, MIN_JOIN_ROUNDS); i++) {
      await conn.run(create);
      await conn.commit();
      const round = [
        await wallAndCpu(() => conn.all(query)),
        await wallAndCpu(() => conn.all(query)),
        await wallAndCpu(async () => (await raw.run(sameSql)).getRows()),
        await wallAndCpu(async () => (await prepared.run()).getRows()),
        await wallAndCpu(async () => (await raw.run(hand)).getRows()),
      ];
      if (i > 0) round.forEach((s, k) => samples.get(JOIN_CASES[k]!)!.push(s)); // the first round warms up
    }
    prepared.destroySync();
    const row = { size: n } as JoinRow;
    for (const [c, list] of samples)
      row[c] = { ms: median(list.map((s) => s.ms)), cpu: median(list.map((s) => s.cpu)) };
    curves.rounds.push(row);
    curves.create.push({ size: n, ms: await timed(runs, () => conn.run(create)) });
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

/**
 * lib against raw per size (wall time and CPU time of the whole process, which DuckDB's threads
 * count in), and whose growth is super-linear: lib's own share (lib repeated − raw with lib's SQL)
 * or DuckDB's (the raw runs themselves).
 */
function printJoinRounds(rows: readonly JoinRow[]): void {
  console.log("\nThe N-table query: lib against raw DuckDB in the same rounds (wall time / CPU time)");
  const cell = (s: { ms: number; cpu: number }) => `${formatTime(s.ms * 1000)} / ${formatTime(s.cpu * 1000)}`;
  printTable(
    ["table", ...JOIN_CASES, "lib/raw same SQL (cpu)", "repeated/prepared (cpu)", "lib's own cpu per table"],
    rows.map((r) => [
      r.size.toLocaleString("en-US"),
      ...JOIN_CASES.map((c) => cell(r[c])),
      `${(r["lib repeated"].cpu / r["raw, lib's SQL"].cpu).toFixed(2)}x`,
      `${(r["lib repeated"].cpu / r["raw, prepared"].cpu).toFixed(2)}x`,
      formatTime(((r["lib repeated"].cpu - r["raw, lib's SQL"].cpu) * 1000) / r.size),
    ]),
  );
  const [first, last] = [rows[0]!, rows[rows.length - 1]!];
  const growth = (c: JoinCase) => last[c].cpu / last.size / (first[c].cpu / first.size);
  console.log(
    `  per-table CPU from ${first.size} to ${last.size} tables: ${JOIN_CASES.map((c) => `${c} x${growth(c).toFixed(2)}`).join(", ")}`,
  );
  const rawGrowth = growth("raw, hand-written");
  console.log(
    rawGrowth > 2
      ? "  the hand-written SQL on a raw connection grows as fast: the super-linear part is DuckDB's own (running a chain of N LEFT hash joins; see scripts/bench/README.md), not lib's"
      : "  the raw runs grow linearly: a super-linear lib curve is lib's own",
  );
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
  console.log(
    `\nengine-scale (built-in semantic engine; median of ${runs} run(s) per size, ${Math.max(runs, MIN_JOIN_ROUNDS)} rounds of the N-table query)`,
  );
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  const rawInstance = await DuckDBInstance.create(":memory:");
  const raw = await rawInstance.connect();
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
    const joins = await joinGraph(conn, raw, chainSizes, runs);
    printCurve("CREATE of a view over a chain of N tables (a dimension each)", "table", joins.create);
    const curve = (c: JoinCase): Point[] => joins.rounds.map((r) => ({ size: r.size, ms: r[c].ms }));
    printCurve(
      "First query joining all N tables (after CREATE: load, expand, probe, run)",
      "table",
      curve("lib first"),
    );
    printCurve("The same query repeated", "table", curve("lib repeated"));
    printCurve("Raw DuckDB, lib's SQL for that query (planned and run)", "table", curve("raw, lib's SQL"));
    printCurve("Raw DuckDB, the hand-written chain of LEFT JOINs", "table", curve("raw, hand-written"));
    printJoinRounds(joins.rounds);
    printCurve("Expansion alone of that request (N dimensions, N tables)", "table", joins.expand, "sql");
  } finally {
    raw.closeSync();
    rawInstance.closeSync();
    await engine.dispose();
  }
  const depths = settings.quick ? [8, 12, 16, 26] : [8, 12, 16, 20, 26];
  printCurve(
    "Expansion of a doubling chain of N levels (SQL size)",
    "level",
    await expansionDepth(depths, runs),
    "sql",
  );
}
