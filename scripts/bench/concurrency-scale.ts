/**
 * "concurrency-scale" (issue 25): how the time of a burst of concurrent semantic queries grows with
 * the burst — 1, 8, 32, 128, 512 at once through one engine with pool_size 5 + max_overflow 3, against
 * the same burst of hand-written SQL through 8 raw connections (generic-pool) on the same instance.
 * Prints size → time with the per-query time and lib/raw per size, then the linear-fit check on each
 * side from 8 queries on (one query alone measures latency, a burst throughput): a queue, waiter list
 * or timer per waiter that costs more per query the longer the queue would show as a per-query time
 * that grows with the burst (and as a lib/raw ratio that grows).
 */
import { BackendCConfig, createEngine } from "lib";
import type { BenchFixture } from "./fixture.js";
import { openRawPool } from "./raw-pool.js";
import { revenueQueries } from "./concurrency.js";
import { printCurve, timedPair, type Point } from "./scale-curve.js";
import type { BenchSettings } from "./bench-settings.js";

const SIZES = [1, 8, 32, 128, 512] as const;

export async function runConcurrencyScale(fixture: BenchFixture, settings: BenchSettings): Promise<boolean> {
  const runs = settings.quick ? 3 : 5;
  await using engine = createEngine(
    new BackendCConfig({ database: fixture.file, poolSize: 5, maxOverflow: 3, timeout: 300 }),
  );
  const raw = await openRawPool(fixture.instance, 8);
  try {
    const { libOne, rawOne } = revenueQueries(engine, raw);
    const burst = (size: number, one: (i: number) => Promise<unknown>) => async () => {
      await Promise.all(Array.from({ length: size }, (_, i) => one(i)));
    };
    const lib: Point[] = [];
    const rawPoints: Point[] = [];
    for (const size of SIZES) {
      // The two sides alternate burst by burst, so both see the same machine load. Small bursts are
      // short and noisy: at least 128 queries' worth of samples per size (16 bursts of 8, 128 of 1).
      const samples = Math.max(runs, Math.ceil(128 / size));
      const { a: libMs, b: rawMs, pairs } = await timedPair(samples, burst(size, libOne), burst(size, rawOne));
      rawPoints.push({ size, ms: rawMs });
      const extra = `${(libMs / rawMs).toFixed(2)}× (pairs ${pairs.median.toFixed(2)}×, IQR ${pairs.q1.toFixed(2)}–${pairs.q3.toFixed(2)})`;
      lib.push({ size, ms: libMs, extra });
    }
    const title = (side: string) =>
      `concurrency-scale: ${side}, burst of N revenue queries at once (${fixture.rows.toLocaleString("en-US")} fact rows, median of ${runs} or more)`;
    // Checked from 8 on: one query alone is a latency; from 8 at once on, a burst is throughput-bound.
    // lib/raw: the ratio of the medians; pairs: the median of the ratios of bursts run back to back.
    const libLinear = printCurve(title("lib execute().into(), pool 5 + overflow 3"), "N", lib, "lib/raw", 1);
    const rawLinear = printCurve(title("raw runAndReadAll, 8 raw connections"), "N", rawPoints, undefined, 1);
    return libLinear && rawLinear;
  } finally {
    await raw.close();
  }
}
