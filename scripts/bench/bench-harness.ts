/**
 * The tiny benchmark harness: warm-up rounds, then timed rounds in which every case of a group runs
 * once per round, the starting case rotating each round (so no case always runs first, right after
 * another case's garbage, or on colder caches). Each sample times `batch` back-to-back operations;
 * the per-operation time of the sample is what the statistics (median, p95) are taken over.
 * Ratios are lib median / raw median of cases measured in the same group, same process, same data.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export type Role = "lib" | "raw" | "info";

export interface BenchCase {
  readonly name: string;
  readonly role: Role;
  /** Names of raw cases in the same group this case is compared with (first one is the headline ratio). */
  readonly baselines?: readonly string[];
  /** One operation. Synchronous operations are called in a tight loop (no `await` in between). */
  readonly run: () => unknown;
}

export interface GroupSpec {
  readonly benchmark: string;
  /** Short name of the group in the summary (defaults to `benchmark`). */
  readonly key?: string;
  readonly title: string;
  readonly cases: readonly BenchCase[];
  readonly warmupRounds: number;
  readonly rounds: number;
  /** Operations per sample (micro benchmarks batch many). Default 1. */
  readonly batch?: number;
  /** Rows produced per operation: adds µs/row. */
  readonly rowsPerOp?: number;
  /** Stop timing after this much wall time, once `minRounds` are in. */
  readonly budgetMs?: number;
  readonly minRounds?: number;
  /** Collect garbage before every sample (large results), outside the timed region. */
  readonly gcBetweenSamples?: boolean;
  /**
   * Also judge each lib case against its first baseline round by round: the ratio of the two samples
   * of one round (taken back to back, under the same conditions), median over rounds with its range.
   * Steadier than the ratio of medians when the machine's load drifts during the group.
   */
  readonly perRoundRatio?: boolean;
  /**
   * Also record the main thread's CPU time per operation (`mainThreadCpuUs`): the library's own work
   * (JS, the driver's calls, garbage collection on the main thread), which other processes on the
   * machine change far less than wall time. Read outside the timed region (Linux: the scheduler's
   * per-thread ns count), per sample; the median sample's per-operation value is reported.
   */
  readonly threadCpu?: boolean;
  readonly note?: string;
}

export interface Ratio {
  readonly baseline: string;
  readonly value: number;
}

export interface CaseResult {
  readonly name: string;
  readonly role: Role;
  readonly samples: number;
  readonly batch: number;
  readonly medianUs: number;
  readonly p95Us: number;
  readonly minUs: number;
  readonly opsPerSec: number;
  readonly usPerRow?: number;
  readonly ratios: readonly Ratio[];
  /** With `perRoundRatio`: the per-round ratios against the first baseline. */
  readonly perRound?: RoundRatio;
  /** With `threadCpu`: the main thread's CPU µs per operation, and its ratio to the first baseline's. */
  readonly mainThreadCpuUs?: number;
  readonly mainThreadCpuRatio?: number;
}

export interface GroupResult {
  readonly benchmark: string;
  readonly key: string;
  readonly title: string;
  readonly rowsPerOp?: number;
  readonly note?: string;
  /** Per-round ratios of a comparison run in rounds (median, extremes, IQR), by what they compare. */
  readonly spread?: Readonly<Record<string, RoundRatio>>;
  /** Ratios of statistics pooled over every round of an interleaved load (see interleaved-load.ts). */
  readonly pooled?: Readonly<Record<string, PooledRatio>>;
  readonly cases: readonly CaseResult[];
}

/** A case measured once as a whole (a load test's req/s or p99), in the shape of the measured ones. */
export function wholeRunCase(name: string, role: Role, us: number, ratios: readonly Ratio[]): CaseResult {
  return { name, role, samples: 1, batch: 1, medianUs: us, p95Us: us, minUs: us, opsPerSec: 1e6 / us, ratios };
}

let collect: (() => void) | undefined;
/** `global.gc` without restarting node with --expose-gc (the flag can be set at run time). */
export function gc(): void {
  if (collect === undefined) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}

const THREAD_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const THREAD_STAT = `/proc/self/task/${process.pid}/stat`;

/**
 * The main thread's CPU time in µs: Linux's scheduler counts it per thread in ns (schedstat), else
 * in 10 ms ticks (stat: user + system); the event loop's busy time where /proc is absent.
 */
export function mainThreadCpuUs(): number {
  try {
    return Number(readFileSync(THREAD_SCHEDSTAT, "utf8").split(" ")[0]) / 1000;
  } catch {
    try {
      const fields = readFileSync(THREAD_STAT, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime, 100 ticks a second
    } catch {
      return performance.eventLoopUtilization().active * 1000;
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Times `batch` operations; returns µs per operation. */
async function sample(run: () => unknown, batch: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) {
    const result = run();
    if (isPromiseLike(result)) await result;
  }
  return ((performance.now() - t0) * 1000) / batch;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export async function measureGroup(spec: GroupSpec): Promise<GroupResult> {
  const batch = spec.batch ?? 1;
  const cases = spec.cases;
  const times = cases.map((): number[] => []);
  const order = (round: number) => cases.map((_, i) => (i + round) % cases.length);
  for (let round = 0; round < spec.warmupRounds; round++) {
    for (const i of order(round)) await sample(cases[i]!.run, batch);
  }
  const started = performance.now();
  const minRounds = spec.minRounds ?? 3;
  const cpuUs = cases.map((): number[] => []);
  for (let round = 0; round < spec.rounds; round++) {
    if (round >= minRounds && spec.budgetMs !== undefined && performance.now() - started > spec.budgetMs) break;
    for (const i of order(round)) {
      if (spec.gcBetweenSamples === true) gc();
      const cpuBefore = spec.threadCpu === true ? mainThreadCpuUs() : 0;
      times[i]!.push(await sample(cases[i]!.run, batch));
      if (spec.threadCpu === true) cpuUs[i]!.push((mainThreadCpuUs() - cpuBefore) / batch);
    }
  }
  // The median sample, as for wall time: a sample that ran a major GC or a JIT tier-up stays an outlier.
  const cpuPerOp = (i: number) => median(cpuUs[i]!);
  const medians = new Map(cases.map((c, i) => [c.name, median(times[i]!)]));
  const results = cases.map((c, i): CaseResult => {
    const sorted = [...times[i]!].sort((a, b) => a - b);
    const med = medians.get(c.name)!;
    const ratios = (c.baselines ?? []).map((baseline) => {
      const base = medians.get(baseline);
      if (base === undefined) throw new Error(`${spec.title}: case "${c.name}" names unknown baseline "${baseline}"`);
      return { baseline, value: med / base };
    });
    const first = c.baselines?.[0];
    const firstIndex = cases.findIndex((b) => b.name === first);
    const perRound =
      spec.perRoundRatio === true && first !== undefined ? roundRatio(times[i]!, times[firstIndex]!) : undefined;
    const cpu =
      spec.threadCpu === true
        ? {
            mainThreadCpuUs: cpuPerOp(i),
            ...(first !== undefined && cpuPerOp(firstIndex) > 0
              ? { mainThreadCpuRatio: cpuPerOp(i) / cpuPerOp(firstIndex) }
              : {}),
          }
        : {};
    return {
      name: c.name,
      role: c.role,
      samples: sorted.length,
      batch,
      medianUs: med,
      p95Us: percentile(sorted, 95),
      minUs: sorted[0]!,
      opsPerSec: 1e6 / med,
      ...(spec.rowsPerOp !== undefined ? { usPerRow: med / spec.rowsPerOp } : {}),
      ratios,
      ...(perRound !== undefined ? { perRound } : {}),
      ...cpu,
    };
  });
  const group: GroupResult = {
    benchmark: spec.benchmark,
    key: spec.key ?? spec.benchmark,
    title: spec.title,
    ...(spec.rowsPerOp !== undefined ? { rowsPerOp: spec.rowsPerOp } : {}),
    ...(spec.note !== undefined ? { note: spec.note } : {}),
    cases: results,
  };
  printGroup(group);
  return group;
}

/** A ratio of two sides' statistics pooled over rounds, with its 5–95 % interval over resampled rounds. */
export interface PooledRatio {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

/** The median of per-round ratios a[i] / b[i], with the smallest and largest round. */
export interface RoundRatio {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Interquartile range of the per-round ratios. */
  readonly q1: number;
  readonly q3: number;
}

export function roundRatio(a: readonly number[], b: readonly number[]): RoundRatio {
  // A round where a side measured nothing (a saturated machine) has no ratio.
  const ratios = a
    .map((x, i) => x / b[i]!)
    .filter(Number.isFinite)
    .sort((x, y) => x - y);
  if (ratios.length === 0)
    return { median: Number.NaN, min: Number.NaN, max: Number.NaN, q1: Number.NaN, q3: Number.NaN };
  const quartile = (q: number) => {
    const at = (ratios.length - 1) * q;
    const lo = Math.floor(at);
    return ratios[lo]! + (ratios[Math.ceil(at)]! - ratios[lo]!) * (at - lo);
  };
  return { median: median(ratios), min: ratios[0]!, max: ratios.at(-1)!, q1: quartile(0.25), q3: quartile(0.75) };
}

export function formatRoundRatio(r: RoundRatio): string {
  return `${r.median.toFixed(2)}× (rounds ${r.min.toFixed(2)}–${r.max.toFixed(2)}, IQR ${r.q1.toFixed(2)}–${r.q3.toFixed(2)})`;
}

/** µs with a readable unit. */
export function formatTime(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e4) return `${(us / 1e3).toFixed(1)} ms`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(2)} ms`;
  if (us >= 10) return `${us.toFixed(1)} µs`;
  return `${us.toFixed(2)} µs`;
}

function formatCpu(c: CaseResult): string {
  if (c.mainThreadCpuUs === undefined) return "-";
  const ratio = c.mainThreadCpuRatio === undefined ? "" : ` (${c.mainThreadCpuRatio.toFixed(2)}×)`;
  return `${formatTime(c.mainThreadCpuUs)}${ratio}`;
}

function formatOps(ops: number): string {
  if (ops >= 1e6) return `${(ops / 1e6).toFixed(2)}M`;
  if (ops >= 1e3) return `${(ops / 1e3).toFixed(1)}k`;
  return ops >= 10 ? ops.toFixed(0) : ops.toFixed(2);
}

export function formatRatios(ratios: readonly Ratio[], many: boolean): string {
  if (ratios.length === 0) return "-";
  return ratios.map((r) => (many ? `${r.value.toFixed(2)}× ${r.baseline}` : `${r.value.toFixed(2)}×`)).join(", ");
}

/** Prints a plain-text table: first column left-aligned, the rest right-aligned. */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

export function printGroup(group: GroupResult): void {
  const rowsCol = group.rowsPerOp !== undefined;
  const perRoundCol = group.cases.some((c) => c.perRound !== undefined);
  const cpuCol = group.cases.some((c) => c.mainThreadCpuUs !== undefined);
  const manyBaselines =
    group.cases.some((c) => c.ratios.length > 1) ||
    new Set(group.cases.flatMap((c) => c.ratios.map((r) => r.baseline))).size > 1;
  console.log(`\n${group.title}${rowsCol ? ` (${group.rowsPerOp!.toLocaleString("en-US")} rows/op)` : ""}`);
  const headers = [
    "case",
    "n",
    "median",
    "p95",
    "ops/s",
    ...(rowsCol ? ["µs/row"] : []),
    manyBaselines ? "lib/raw (vs)" : "lib/raw",
    ...(perRoundCol ? ["per round vs first (range)"] : []),
    ...(cpuCol ? ["main-thread CPU/op"] : []),
  ];
  printTable(
    headers,
    group.cases.map((c) => [
      `${c.role === "raw" ? "raw " : c.role === "lib" ? "lib " : ""}${c.name}`,
      c.batch > 1 ? `${c.samples}×${c.batch}` : String(c.samples),
      formatTime(c.medianUs),
      formatTime(c.p95Us),
      formatOps(c.opsPerSec),
      ...(rowsCol ? [c.usPerRow!.toFixed(3)] : []),
      formatRatios(c.ratios, manyBaselines),
      ...(perRoundCol ? [c.perRound === undefined ? "-" : formatRoundRatio(c.perRound)] : []),
      ...(cpuCol ? [formatCpu(c)] : []),
    ]),
  );
  if (group.note !== undefined) console.log(`  ${group.note}`);
}
