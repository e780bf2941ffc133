/**
 * The HTTP load generator of the benchmarks: autocannon running in ONE worker thread that lives for
 * the whole group, so every side of a comparison is loaded by the same thread, warmed the same way,
 * with no per-run worker start-up (autocannon's own `workers` option starts a thread per run). A
 * slice opens fresh connections, runs `warmupMs + measureMs`, and keeps only the responses that
 * completed after the warm-up: req/s over the measured window and the latency percentiles of those
 * responses, computed here from each response's own time (autocannon's histogram rounds to whole ms).
 *
 * With several paths, every request takes the next path of one rotation shared by all connections
 * (autocannon's own `requests` list restarts at the first path on every connection of every run, so
 * at low throughput a slice never reaches the last paths and the first ones dominate the mix).
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { isMainThread, parentPort, Worker } from "node:worker_threads";

export interface Slice {
  readonly url: string;
  /** Paths cycled by every connection (default: the URL's own). */
  readonly paths?: readonly string[];
  readonly connections: number;
  readonly warmupMs: number;
  readonly measureMs: number;
}

export interface SliceResult {
  /** Responses that completed in the measured window, per second of it. */
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Measured responses. */
  readonly requests: number;
  /** Every successful response of the slice, warm-up included. */
  readonly total: number;
  /** Connection errors, timeouts and non-2xx answers over the whole slice. */
  readonly errors: number;
  /** Every measured response's latency in ms (for statistics pooled over slices). */
  readonly latencies: Float64Array;
  /**
   * The load worker's own CPU time per response (µs, whole slice; NaN without Linux schedstat): the
   * sides of a comparison share the machine with it, so it must cost them alike.
   */
  readonly workerUsPerRequest: number;
}

export interface LoadWorker {
  run(slice: Slice): Promise<SliceResult>;
  close(): Promise<void>;
}

/** Starts the worker (compiled as is; from the TypeScript sources through tsx's loader). */
export async function startLoadWorker(): Promise<LoadWorker> {
  const compiled = import.meta.url.endsWith(".js");
  const entry = JSON.stringify(import.meta.url);
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); })`;
  const worker = compiled ? new Worker(new URL(import.meta.url)) : new Worker(boot, { eval: true });
  await Promise.race([once(worker, "online"), once(worker, "error").then(([e]) => Promise.reject(e as Error))]);
  // One slice at a time (a second side never overlaps the first), answered in order.
  let pending: { resolve(result: SliceResult): void; reject(error: Error): void } | undefined;
  let failed: Error | undefined;
  worker.on("message", (answer: SliceResult | { readonly error: string }) => {
    const waiter = pending;
    pending = undefined;
    if ("error" in answer) waiter?.reject(new Error(`load worker: ${answer.error}`));
    else waiter?.resolve(answer);
  });
  worker.on("error", (error) => {
    failed = error;
    pending?.reject(error);
  });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run: (slice) => {
      const next = queue.then(
        () =>
          new Promise<SliceResult>((resolve, reject) => {
            if (failed !== undefined) return reject(failed);
            pending = { resolve, reject };
            worker.postMessage(slice);
          }),
      );
      queue = next.catch(() => undefined);
      return next;
    },
    close: async () => {
      await queue;
      await worker.terminate();
    },
  };
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** A request setup that gives each request the next of `paths`, across all connections. */
function rotation(paths: readonly string[]): (request: autocannon.Request) => autocannon.Request {
  let next = 0;
  return (request) => ({ ...request, path: paths[next++ % paths.length]! });
}

/** This thread's CPU time in µs (Linux schedstat, ns; NaN elsewhere). */
function threadCpuUs(): number {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1000;
  } catch {
    return Number.NaN;
  }
}

async function runSlice(slice: Slice): Promise<SliceResult> {
  const cpuBefore = threadCpuUs();
  const latencies: number[] = [];
  const started = performance.now();
  const from = started + slice.warmupMs;
  const until = from + slice.measureMs;
  let errors = 0;
  let total = 0;
  let finish: (result: autocannon.Result) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => ([finish, fail] = [resolve, reject]));
  const options: autocannon.Options = {
    url: slice.url,
    connections: slice.connections,
    // Whole seconds; the slice's own end (below) stops it at warm-up + measured window.
    duration: Math.ceil((slice.warmupMs + slice.measureMs) / 1000) + 1,
    // autocannon looks at a stop request once per sample interval: a short one ends the slice on time.
    sampleInt: 50,
    ...(slice.paths === undefined
      ? {}
      : slice.paths.length === 1
        ? { requests: [{ method: "GET", path: slice.paths[0]! }] }
        : { requests: [{ method: "GET", setupRequest: rotation(slice.paths) }] }),
  };
  const instance = autocannon(options, (error, result) => (error ? fail(error) : finish(result)));
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    const now = performance.now();
    if (status < 200 || status > 299) {
      errors++;
      return;
    }
    total++;
    if (now >= from && now <= until) latencies.push(ms);
  });
  instance.on("reqError", () => errors++);
  const stop = setTimeout(() => instance.stop(), until - started);
  const result = await done;
  clearTimeout(stop);
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: (latencies.length * 1000) / slice.measureMs,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    requests: latencies.length,
    total,
    errors: errors + result.timeouts,
    latencies: Float64Array.from(latencies),
    workerUsPerRequest: (threadCpuUs() - cpuBefore) / Math.max(1, total),
  };
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  port.on("message", (slice: Slice) => {
    runSlice(slice).then(
      (result) => port.postMessage(result),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
