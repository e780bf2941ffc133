/**
 * "concurrency": a burst of semantic queries issued all at once (2,000 in the full run) through a
 * library engine with pool_size 5 + max_overflow 3, against the same burst of hand-written SQL through
 * 8 raw connections (generic-pool) on the same instance. Every fourth query is unfiltered, the others
 * filter on a country (cycling), so both sides run the same mix; the raw side once materialized
 * (runAndReadAll) and once streamed like the cursor. One sample = the whole burst; the
 * lib/raw ratio is of burst times (throughput ratio = its inverse). `--quick` fires 200 per burst.
 */
import { deepStrictEqual } from "node:assert/strict";
import { BackendCConfig, createEngine, type Engine } from "lib";
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import { openRawPool, type RawPool } from "./raw-pool.js";
import { libQuery, RAW_SQL, RAW_SQL_FILTERED, RevenueByCountry } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

const FILTERS = ["DE", "US", "FR", "JP", "GB", "IT", "ES"] as const;
const countryOf = (i: number): string | undefined => (i % 4 === 0 ? undefined : FILTERS[i % FILTERS.length]);

/**
 * Query number `i` of a burst, on each side: every fourth unfiltered, the others filtered on a
 * cycling country. lib: `execute().into()`; raw: `runAndReadAll` on one of the raw connections.
 */
export function revenueQueries(engine: Engine, raw: RawPool) {
  const queries = new Map<string | undefined, ReturnType<typeof libQuery>>(
    [undefined, ...FILTERS].map((country) => [country, libQuery(country).using(engine)]),
  );
  return {
    libOne: async (i: number) => {
      await using cursor = await queries.get(countryOf(i))!.execute();
      return await cursor.into(RevenueByCountry);
    },
    rawOne: (i: number) => {
      const country = countryOf(i);
      return raw.use(async (conn) =>
        (
          await conn.runAndReadAll(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined)
        ).getRowObjects(),
      );
    },
  };
}

export async function runConcurrency(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const burst = settings.quick ? 200 : 2_000;
  // Same file, same options: the engine shares the fixture's DuckDB instance.
  await using engine = createEngine(
    new BackendCConfig({ database: fixture.file, poolSize: 5, maxOverflow: 3, timeout: 120 }),
  );
  const raw = await openRawPool(fixture.instance, 8);
  try {
    const { libOne, rawOne } = revenueQueries(engine, raw);
    // The same, streamed as lib's cursor reads (prepare + stream + fetchChunk): DuckDB's streaming
    // execution costs more than a materialized result for a small aggregate, whoever asks for it.
    const rawStreamedOne = (i: number) => {
      const country = countryOf(i);
      return raw.use(async (conn) => {
        const prepared = await conn.prepare(country ? RAW_SQL_FILTERED : RAW_SQL);
        try {
          if (country) prepared.bind([country]);
          const result = await prepared.stream();
          const rows = [];
          for (
            let chunk = await result.fetchChunk();
            chunk !== null && chunk.rowCount > 0;
            chunk = await result.fetchChunk()
          )
            rows.push(...chunk.getRowObjects(result.columnNames()));
          return rows;
        } finally {
          prepared.destroySync();
        }
      });
    };
    const all = <T>(one: (i: number) => Promise<T>) => Promise.all(Array.from({ length: burst }, (_, i) => one(i)));

    // Same answers on both sides.
    const [lib, rawRows] = await Promise.all([all(libOne), all(rawOne)]);
    deepStrictEqual(
      lib.map((rows) => rows.map((r) => ({ ...r }))),
      rawRows.map((rows) => rows.map((r) => ({ country: r["country"], revenue: r["revenue"] }))),
      "concurrency: library and raw driver disagree",
    );

    return [
      await measureGroup({
        benchmark: "concurrency",
        title: `concurrency: ${burst.toLocaleString("en-US")} revenue queries at once (${fixture.rows.toLocaleString("en-US")} fact rows)`,
        // Every round runs each side's burst once, the first side rotating; the goal (throughput ≥ 0.90×)
        // is judged on the median of per-round ratios, which the machine's drift between rounds moves least.
        warmupRounds: 1,
        rounds: settings.quick ? 9 : 11,
        budgetMs: settings.quick ? 10_000 : 60_000,
        minRounds: 5,
        perRoundRatio: true,
        cases: [
          {
            name: `execute().into() × ${burst}, pool 5 + overflow 3`,
            role: "lib",
            baselines: ["8 raw connections", "8 raw connections, streamed"],
            run: () => all(libOne),
          },
          { name: "8 raw connections", role: "raw", run: () => all(rawOne) },
          { name: "8 raw connections, streamed", role: "raw", run: () => all(rawStreamedOne) },
        ],
        note:
          `median time for the whole burst; throughput = ${burst} / time, so lib/raw throughput = 1 / the ratio shown (goal ≥ 0.90×: ratio ≤ 1.11×). ` +
          "raw: runAndReadAll (materialized); raw streamed: prepare + stream + fetchChunk, as the cursor reads.",
      }),
    ];
  } finally {
    await raw.close();
  }
}
