/**
 * Comparing HTTP sides steadily: short slices of load, the sides interleaved (a, b, a, b, …, the
 * first side rotating each round), one load worker for all (`load-worker.ts`), every side warmed
 * by an unmeasured slice first. A single long run per side gives one p99, and the machine's load
 * drifts between the two runs; here each round pairs two adjacent slices, so the per-round ratio
 * sees the same conditions on both sides, and the median over rounds (with its spread) is the
 * statistic a goal is judged by.
 */
import { mainThreadCpuUs, median, type PooledRatio } from "./bench-harness.js";
import type { Server, ServerResponse } from "node:http";
import { PerformanceObserver } from "node:perf_hooks";
import type { LoadWorker, SliceResult } from "./load-worker.js";

export interface LoadSide {
  readonly name: string;
  readonly url: string;
  readonly paths?: readonly string[];
  /** Resolves once the side's server has answered every request it took (before the next slice). */
  readonly drained?: () => Promise<void>;
}

/**
 * A slice, plus the CPU time the measured process's main thread (the servers' event loop, not
 * DuckDB's threads nor the load worker) spent per response: what other processes on the machine
 * change least (bench-harness.ts `mainThreadCpuUs`).
 */
export interface SideSlice extends SliceResult {
  readonly mainThreadUsPerRequest: number;
  /** Collections on this thread (the servers' event loop) during the slice: count, summed and longest pause (ms). */
  readonly gc: GcPauses;
}

export interface GcPauses {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
}

/** Counts this thread's garbage collections (perf_hooks "gc" entries) while `take()` is between calls. */
function gcMeter(): { take(): GcPauses; stop(): void } {
  let pauses = { count: 0, totalMs: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.count++;
      pauses.totalMs += entry.duration;
      pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    take: () => {
      const taken = pauses;
      pauses = { count: 0, totalMs: 0, maxMs: 0 };
      return taken;
    },
    stop: () => observer.disconnect(),
  };
}

export interface InterleavedOptions {
  readonly rounds: number;
  readonly connections: number;
  /** Per slice: responses before this are not measured (fresh connections, the JIT, pools). */
  readonly warmupMs: number;
  readonly measureMs: number;
}

/** Every side's slices, round by round (index i of every list is round i). */
export type SlicesBySide = ReadonlyMap<string, readonly SideSlice[]>;

export async function interleavedLoad(
  worker: LoadWorker,
  sides: readonly LoadSide[],
  options: InterleavedOptions,
): Promise<SlicesBySide> {
  const gc = gcMeter();
  const slice = async (side: LoadSide, measureMs: number): Promise<SideSlice> => {
    // Entries are delivered after the fact: a turn of the event loop hands the previous slice's last ones over.
    await new Promise((resolve) => setImmediate(resolve));
    gc.take();
    const before = mainThreadCpuUs();
    const result = await worker.run({
      url: side.url,
      ...(side.paths === undefined ? {} : { paths: side.paths }),
      connections: options.connections,
      warmupMs: options.warmupMs,
      measureMs,
    });
    await side.drained?.();
    const mainThreadUsPerRequest = (mainThreadCpuUs() - before) / Math.max(1, result.total);
    await new Promise((resolve) => setImmediate(resolve));
    return { ...result, mainThreadUsPerRequest, gc: gc.take() };
  };
  try {
    for (const side of sides) await slice(side, options.measureMs / 2);
    const slices = new Map(sides.map((side): [string, SideSlice[]] => [side.name, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(k + round) % sides.length]!;
        const result = await slice(side, options.measureMs);
        if (result.errors > 0) throw new Error(`${side.name}: ${result.errors} failed requests on ${side.url}`);
        slices.get(side.name)!.push(result);
      }
    }
    return slices;
  } finally {
    gc.stop();
  }
}

/** A side's collections over all its slices, per 1,000 responses (count and pause ms), and the longest pause. */
export function gcPerThousand(slices: readonly SideSlice[]): { count: number; totalMs: number; maxMs: number } {
  const responses = slices.reduce((n, s) => n + s.total, 0) / 1000;
  return {
    count: slices.reduce((n, s) => n + s.gc.count, 0) / responses,
    totalMs: slices.reduce((n, s) => n + s.gc.totalMs, 0) / responses,
    maxMs: Math.max(...slices.map((s) => s.gc.maxMs)),
  };
}

/** Nearest-rank percentile `p` of every measured response of `slices` together. */
export function pooledPercentile(slices: readonly SliceResult[], p: number): number {
  const all = new Float64Array(slices.reduce((n, s) => n + s.latencies.length, 0));
  let at = 0;
  for (const s of slices) {
    all.set(s.latencies, at);
    at += s.latencies.length;
  }
  all.sort();
  return all.length === 0 ? Number.NaN : all[Math.min(all.length, Math.max(1, Math.ceil((p / 100) * all.length))) - 1]!;
}

/**
 * `pooledPercentile(a) / pooledPercentile(b)`: each side's percentile over all its measured
 * responses (a slice's p99 is its ~25 slowest responses, i.e. whichever stall of the machine hit
 * that slice; pooled over every round, each side's p99 rests on all the stalls of the run, which the
 * interleaving spreads over both sides alike). The interval resamples whole rounds (bootstrap, a
 * fixed seed), so it shows how much the value depends on which rounds the run happened to get.
 */
export function pooledRatio(a: readonly SliceResult[], b: readonly SliceResult[], p: number): PooledRatio {
  const value = pooledPercentile(a, p) / pooledPercentile(b, p);
  let seed = 0x2545f491;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const resampled: number[] = [];
  for (let k = 0; k < 100; k++) {
    const rounds = a.map(() => Math.floor(random() * a.length));
    resampled.push(
      pooledPercentile(
        rounds.map((r) => a[r]!),
        p,
      ) /
        pooledPercentile(
          rounds.map((r) => b[r]!),
          p,
        ),
    );
  }
  resampled.sort((x, y) => x - y);
  return { value, low: resampled[4]!, high: resampled[94]! };
}

export function formatPooledRatio(r: PooledRatio): string {
  return `${r.value.toFixed(2)}× (rounds resampled: 5–95 % ${r.low.toFixed(2)}–${r.high.toFixed(2)})`;
}

/** A `drained` for a server: resolves once it has answered every request it took. */
export function drainable(server: Server): () => Promise<void> {
  let active = 0;
  let idle: (() => void) | undefined;
  server.on("request", (_req, res: ServerResponse) => {
    active++;
    res.once("close", () => {
      if (--active === 0) idle?.();
    });
  });
  return () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));
}

/** A side's median over rounds of one slice statistic. */
export function medianOf<S extends SliceResult>(slices: readonly S[], stat: (s: S) => number): number {
  return median(slices.map(stat));
}
