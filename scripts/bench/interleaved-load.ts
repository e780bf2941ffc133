/**
 * Comparing HTTP sides steadily: short slices of load, the sides interleaved (a, b, a, b, …, the
 * first side rotating each round), one load worker for all (`load-worker.ts`), every side warmed
 * by an unmeasured slice first. A single long run per side gives one p99, and the machine's load
 * drifts between the two runs; here each round pairs two adjacent slices, so the per-round ratio
 * sees the same conditions on both sides, and the median over rounds (with its spread) is the
 * statistic a goal is judged by.
 */
import { mainThreadCpuUs, median } from "./bench-harness.js";
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
  const slice = async (side: LoadSide, measureMs: number): Promise<SideSlice> => {
    const before = mainThreadCpuUs();
    const result = await worker.run({
      url: side.url,
      ...(side.paths === undefined ? {} : { paths: side.paths }),
      connections: options.connections,
      warmupMs: options.warmupMs,
      measureMs,
    });
    await side.drained?.();
    return { ...result, mainThreadUsPerRequest: (mainThreadCpuUs() - before) / Math.max(1, result.total) };
  };
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
}

/** A side's median over rounds of one slice statistic. */
export function medianOf<S extends SliceResult>(slices: readonly S[], stat: (s: S) => number): number {
  return median(slices.map(stat));
}
