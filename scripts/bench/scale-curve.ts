/**
 * Scale curves (issue 25): a table of size → time, time per unit and the step from the previous size,
 * then a linear-fit check: the per-unit cost from the smallest to the largest size may at most double.
 */
import { formatTime, median, printTable, roundRatio, type RoundRatio } from "./bench-harness.js";

export interface Point {
  readonly size: number;
  readonly ms: number;
  readonly extra?: string;
}

/** Median of `runs` timed calls of `body`, after one warm-up call (which pays for compilation, not for the size). */
export async function timed(runs: number, body: () => Promise<void> | void): Promise<number> {
  const samples: number[] = [];
  await body();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await body();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * Medians of `runs` timed calls of `a` and of `b`, taken in pairs back to back (which side goes first
 * alternating), after one warm-up call of each, with the per-pair ratios a/b: a pair's two samples see
 * the same machine, so the ratios drift less with other processes' load than the two medians do.
 */
export async function timedPair(
  runs: number,
  a: () => Promise<void>,
  b: () => Promise<void>,
): Promise<{ a: number; b: number; pairs: RoundRatio }> {
  const times: [number[], number[]] = [[], []];
  const sides = [a, b] as const;
  await a();
  await b();
  for (let i = 0; i < runs; i++) {
    for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      await sides[side]!();
      times[side]!.push(performance.now() - started);
    }
  }
  return { a: median(times[0]), b: median(times[1]), pairs: roundRatio(times[0], times[1]) };
}

/** Wall and CPU time of one call, in ms (CPU: the whole process's, DuckDB's threads included; steadier under load). */
export async function wallAndCpu(body: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await body();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpu: (used.user + used.system) / 1000 };
}

/**
 * Prints the curve; returns whether it passed the linear-fit check, made from point `checkFrom` on
 * (a curve whose first point measures something else, e.g. one query's latency before a burst's throughput).
 */
export function printCurve(
  title: string,
  unit: string,
  points: readonly Point[],
  extraHeader?: string,
  checkFrom = 0,
): boolean {
  console.log(`\n${title}`);
  const rows = points.map((p, i) => {
    const prev = points[i - 1];
    const step = prev === undefined ? "" : `x${(p.ms / prev.ms).toFixed(2)} for x${(p.size / prev.size).toFixed(1)}`;
    return [
      p.size.toLocaleString("en-US"),
      formatTime(p.ms * 1000),
      formatTime((p.ms * 1000) / p.size),
      ...(extraHeader === undefined ? [] : [p.extra ?? ""]),
      step,
    ];
  });
  printTable([unit, "time", `per ${unit}`, ...(extraHeader === undefined ? [] : [extraHeader]), "step"], rows);
  const first = points[checkFrom]!;
  const last = points[points.length - 1]!;
  const growth = last.ms / last.size / (first.ms / first.size);
  const linear = growth <= 2;
  console.log(
    `  per-${unit} cost from ${first.size.toLocaleString("en-US")} to largest: x${growth.toFixed(2)} (${linear ? "linear" : "SUPER-LINEAR"})`,
  );
  return linear;
}
