/**
 * Benchmarks of `lib` against the raw DuckDB driver, measured in the same run on the same data
 * (`npm run bench`, which compiles this file and lib first and runs it with plain node: see bench.ts). Prints one table per benchmark and a summary, and writes every number as JSON
 * to test-output/bench-results/latest.json (git-ignored).
 *
 *   npx tsx scripts/bench/bench.ts [--quick] [--only name[,name...]] [--rows N] [--out file.json]
 *
 * Benchmarks: the keys of REGISTRY below (revenue-by-country, compile, checkout, large-result, concurrency,
 * concurrency-scale, overflow-connection, http-revenue, streaming-memory, http-streaming, distinct-values,
 * cache-hit, dashboard-cache, semantic-expansion, join-shape, engine-scale, builder-scale, codegen-scale).
 * Full run: several minutes on 2 cores; --quick: about 2–3 minutes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCheckout } from "./checkout.js";
import { runCompile } from "./compile.js";
import { runConcurrency } from "./concurrency.js";
import { runConcurrencyScale } from "./concurrency-scale.js";
import { runOverflowConnection } from "./overflow-connection.js";
import { runExpansion, type ExpansionSummary } from "./expansion-bench.js";
import { openFixture, type BenchFixture } from "./fixture.js";
import { formatRatios, formatTime, printTable, type GroupResult } from "./bench-harness.js";
import { runHttpRevenue } from "./http-revenue.js";
import { runLargeResult } from "./large-result.js";
import { runRevenueByCountry } from "./revenue-by-country.js";
import { runStreamingMemory } from "./streaming-memory.js";
import { runCacheHit } from "./cache-hit.js";
import { runDashboardCache } from "./dashboard-cache.js";
import { runHttpStreaming } from "./http-streaming.js";
import { runEngineScale } from "./engine-scale.js";
import { runJoinShape } from "./join-shape.js";
import { runBuilderScale } from "./builder-scale.js";
import { runCodegenScale } from "./codegen-scale.js";
import { runDistinctValues } from "./distinct-values.js";
import type { BenchSettings } from "./bench-settings.js";

interface Benchmark {
  /** Whether it reads the shared `sales_data` fixture (generated once per run). */
  readonly fixture: boolean;
  run(fixture: BenchFixture | undefined, settings: BenchSettings): Promise<GroupResult[]>;
}

let expansion: ExpansionSummary | undefined;

/** Every benchmark, one line each, in the order a full run runs them. */
const REGISTRY = {
  "revenue-by-country": { fixture: true, run: (f, s) => runRevenueByCountry(f!, s) },
  compile: { fixture: false, run: (_f, s) => runCompile(s) },
  checkout: { fixture: true, run: (f, s) => runCheckout(f!, s) },
  "large-result": { fixture: true, run: (f, s) => runLargeResult(f!, s) },
  concurrency: { fixture: true, run: (f, s) => runConcurrency(f!, s) },
  "concurrency-scale": { fixture: true, run: async (f, s) => (await runConcurrencyScale(f!, s), []) },
  "overflow-connection": { fixture: true, run: (f, s) => runOverflowConnection(f!, s) },
  "http-revenue": { fixture: true, run: (f, s) => runHttpRevenue(f!, s) },
  "streaming-memory": { fixture: true, run: (f, s) => runStreamingMemory(f!, s) },
  "http-streaming": { fixture: true, run: (f, s) => runHttpStreaming(f!, s) },
  "distinct-values": { fixture: true, run: (f, s) => runDistinctValues(f!, s) },
  "cache-hit": { fixture: true, run: (f, s) => runCacheHit(f!, s) },
  "dashboard-cache": { fixture: true, run: (f, s) => runDashboardCache(f!, s) },
  "semantic-expansion": { fixture: false, run: async (_f, s) => ((expansion = await runExpansionFor(s)), []) },
  "join-shape": { fixture: false, run: async (_f, s) => (await runJoinShape(s), []) },
  "engine-scale": { fixture: false, run: async (_f, s) => (await runEngineScale(s), []) },
  "builder-scale": { fixture: false, run: async (_f, s) => (await runBuilderScale(s), []) },
  "codegen-scale": { fixture: false, run: async (_f, s) => (await runCodegenScale(s), []) },
} satisfies Record<string, Benchmark>;
type BenchmarkName = keyof typeof REGISTRY;
const BENCHMARKS = Object.keys(REGISTRY) as BenchmarkName[];

/** Its own in-memory star schema. */
function runExpansionFor(settings: BenchSettings): Promise<ExpansionSummary> {
  return runExpansion(settings.quick ? { rows: 300_000, runs: 3 } : { rows: 1_000_000, runs: 7 });
}

/** The repository; the compiled copy under test-output/bench-build/ is told it by bench.ts. */
const REPO = process.env["LIB_BENCH_REPO"] ?? resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const LOADED_FROM = process.env["LIB_BENCH_LOADED_FROM"] ?? "TypeScript sources";

interface Args {
  readonly quick: boolean;
  readonly only: readonly BenchmarkName[];
  readonly rows: number | undefined;
  readonly out: string;
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: tsx scripts/bench/bench.ts [--quick] [--only ${BENCHMARKS.join("|")}[,...]] [--rows N] [--out file.json]`,
  );
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Args {
  let quick = false;
  let only: BenchmarkName[] = [...BENCHMARKS];
  let rows: number | undefined;
  let out = resolve(REPO, "test-output/bench-results/latest.json");
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    if (arg === "--quick") quick = true;
    else if (arg === "--only") {
      only = value()
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "")
        .map((name) =>
          (BENCHMARKS as readonly string[]).includes(name)
            ? (name as BenchmarkName)
            : usage(`unknown benchmark "${name}"`),
        );
    } else if (arg === "--rows") {
      rows = Number(value());
      if (!Number.isSafeInteger(rows) || rows < 1) usage(`--rows must be a positive integer`);
    } else if (arg === "--out") out = resolve(value());
    else if (arg === "--help" || arg === "-h") usage("");
    else usage(`unknown argument "${arg}"`);
  }
  return { quick, only, rows, out };
}

function summary(groups: readonly GroupResult[]): void {
  const rows = groups.flatMap((g) =>
    g.cases
      .filter((c) => c.role === "lib")
      .map((c) => [`${g.key}: ${c.name}`, formatTime(c.medianUs), formatRatios(c.ratios, true)]),
  );
  if (rows.length === 0) return;
  console.log("\nSummary (lib median and lib/raw ratio of medians, same run, same data)");
  printTable(["case", "median", "lib/raw"], rows);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const settings: BenchSettings = { quick: args.quick, rows: args.rows ?? (args.quick ? 200_000 : 1_000_000) };
  const started = Date.now();
  const environment = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    totalMemoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
    quick: settings.quick,
    rows: settings.rows,
    loadedFrom: LOADED_FROM,
  };
  console.log(
    `lib benchmarks${settings.quick ? " (--quick)" : ""}: ${args.only.join(", ")}; node ${environment.node}, ${environment.cpus} cpus, ` +
      `load average ${environment.loadAverageAtStart.join(" ")}; lib and the benchmarks run as ${LOADED_FROM}`,
  );

  const groups: GroupResult[] = [];
  let fixture: BenchFixture | undefined;
  // Ctrl-C: still remove the temp database.
  process.once("SIGINT", () => {
    void (fixture?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  try {
    if (args.only.some((name) => REGISTRY[name].fixture)) {
      fixture = await openFixture(settings.rows);
      console.log(
        `Generated sales_data: ${settings.rows.toLocaleString("en-US")} rows (seeded PRNG) in ${fixture.seedSeconds.toFixed(1)} s; file-backed DuckDB in ${dirname(fixture.file)}`,
      );
    }
    for (const [index, name] of args.only.entries()) {
      // Once no later benchmark reads the shared fixture, its memory goes back before the next one runs.
      if (fixture !== undefined && !args.only.slice(index).some((later) => REGISTRY[later].fixture)) {
        await fixture.close();
        fixture = undefined;
      }
      groups.push(...(await REGISTRY[name].run(fixture, settings)));
    }
  } finally {
    await fixture?.close();
  }

  summary(groups);
  const seconds = (Date.now() - started) / 1000;
  const results = {
    environment: {
      ...environment,
      loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))),
      totalSeconds: seconds,
    },
    groups,
    ...(expansion !== undefined ? { semanticExpansion: expansion } : {}),
  };
  await mkdir(dirname(args.out), { recursive: true });
  await writeFile(args.out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nTotal ${seconds.toFixed(1)} s. Results written to ${args.out}`);
}

await main();
