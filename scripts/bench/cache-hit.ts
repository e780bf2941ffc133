/**
 * "cache-hit": a 1,000-row result through `execute().fetchAllRows()` served by the engine's result
 * cache, against the same query answered by backend C from warm prepared statements (the library's
 * own, and a raw `@duckdb/node-api` connection that keeps its prepared statement). Same rows checked.
 */
import { deepStrictEqual } from "node:assert/strict";
import { BackendCConfig, createEngine } from "lib";
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import { Sales } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

const ROWS = 1000;
const RAW_SQL = `SELECT country, id AS sale_id, revenue AS unit_revenue, amount FROM sales_data ORDER BY id LIMIT ${ROWS}`;

export async function runCacheHit(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const q = Sales.query()
    .dimensions(Sales.country)
    .facts(Sales.sale_id, Sales.unit_revenue, Sales.amount)
    .orderBy(Sales.sale_id)
    .limit(ROWS);
  await using cached = createEngine(new BackendCConfig({ database: fixture.file, poolSize: 2, cache: { ttl: 3600 } }));
  const prepared = await fixture.raw.prepare(RAW_SQL);
  try {
    const read = async (options?: { cache: false }) => {
      await using cursor = await q.using(cached).execute(options);
      return await cursor.fetchAllRows();
    };
    const hit = await read();
    const raw = (await prepared.runAndReadAll()).getRowObjects();
    deepStrictEqual(
      hit.map((r) => [r.country, r.sale_id, String(r.amount)]),
      raw.map((r) => [r["country"], r["sale_id"], String(r["amount"])]),
      "cache-hit: the cached rows differ from the raw driver's",
    );
    if (hit.length !== ROWS) throw new Error(`cache-hit: ${hit.length} rows, expected ${ROWS}`);
    const group = await measureGroup({
      benchmark: "cache-hit",
      title: `cache-hit: a ${ROWS}-row result, execute().fetchAllRows() (${fixture.rows.toLocaleString("en-US")} fact rows)`,
      warmupRounds: settings.quick ? 20 : 50,
      rounds: settings.quick ? 100 : 400,
      budgetMs: settings.quick ? 2_000 : 6_000,
      rowsPerOp: ROWS,
      cases: [
        {
          name: "result cache hit",
          role: "lib",
          baselines: ["prepared once, getRowObjects()"],
          run: () => read(),
        },
        {
          name: "cache: false (lib's warm prepared statement)",
          role: "info",
          run: () => read({ cache: false }),
        },
        {
          name: "prepared once, getRowObjects()",
          role: "raw",
          run: async () => (await prepared.runAndReadAll()).getRowObjects(),
        },
      ],
      note: "goal: the hit ≤ 0.2× the raw driver's warm prepared statement",
    });
    return [group];
  } finally {
    prepared.destroySync();
  }
}
