/**
 * Benchmarks of `lib` against the raw DuckDB driver, measured in the same run on the same data
 * (`npm run bench`). Prints one table per benchmark and a summary, and writes every number as JSON
 * to test-output/bench-results/latest.json (git-ignored).
 *
 *   npx tsx scripts/bench/bench.ts [--quick] [--only name[,name...]] [--rows N] [--out file.json]
 *
 * Benchmarks: revenue-by-country, compile, checkout, large-result, concurrency, http-revenue, streaming-memory, http-streaming, semantic-expansion, engine-scale.
 * Full run: about 4–5 minutes on 2 cores; --quick: about 35 s.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCheckout } from "./checkout.js";
import { runCompile } from "./compile.js";
import { runConcurrency } from "./concurrency.js";
import { runEngineScale } from "./engine-scale.js";
import { runExpansion, type ExpansionSummary } from "./expansion-bench.js";
import { openFixture, type BenchFixture } from "./fixture.js";
import { formatRatios, formatTime, printTable, type GroupResult } from "./bench-harness.js";
import { runHttpRevenue } from "./http-revenue.js";
import { runLargeResult } from "./large-result.js";
import { runRevenueByCountry } from "./revenue-by-country.js";
import { runStreamingMemory } from "./streaming-memory.js";
import { runHttpStreaming } from "./http-streaming.js";
import type { BenchSettings } from "./bench-settings.js";

const BENCHMARKS = [
  "revenue-by-country",
  "compile",
  "checkout",
  "large-result",
  "concurrency",
  "http-revenue",
  "streaming-memory",
  "http-streaming",
  "semantic-expansion",
  "engine-scale",
] as const;
type BenchmarkName = (typeof BENCHMARKS)[number];
const NEEDS_FIXTURE: ReadonlySet<BenchmarkName> = new Set([
  "revenue-by-country",
  "checkout",
  "large-result",
  "concurrency",
  "http-revenue",
  "streaming-memory",
  "http-streaming",
]);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

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
  };
  console.log(
    `lib benchmarks${settings.quick ? " (--quick)" : ""}: ${args.only.join(", ")}; node ${environment.node}, ${environment.cpus} cpus, ` +
      `load average ${environment.loadAverageAtStart.join(" ")}`,
  );

  const groups: GroupResult[] = [];
  let expansion: ExpansionSummary | undefined;
  let fixture: BenchFixture | undefined;
  // Ctrl-C: still remove the temp database.
  process.once("SIGINT", () => {
    void (fixture?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  try {
    if (args.only.some((name) => NEEDS_FIXTURE.has(name))) {
      fixture = await openFixture(settings.rows);
      console.log(
        `Generated sales_data: ${settings.rows.toLocaleString("en-US")} rows (seeded PRNG) in ${fixture.seedSeconds.toFixed(1)} s; file-backed DuckDB in ${dirname(fixture.file)}`,
      );
    }
    for (const name of args.only) {
      switch (name) {
        case "revenue-by-country":
          groups.push(...(await runRevenueByCountry(fixture!, settings)));
          break;
        case "compile":
          groups.push(...(await runCompile(settings)));
          break;
        case "checkout":
          groups.push(...(await runCheckout(fixture!, settings)));
          break;
        case "large-result":
          groups.push(...(await runLargeResult(fixture!, settings)));
          break;
        case "concurrency":
          groups.push(...(await runConcurrency(fixture!, settings)));
          break;
        case "http-revenue":
          groups.push(...(await runHttpRevenue(fixture!, settings)));
          break;
        case "streaming-memory":
          groups.push(...(await runStreamingMemory(fixture!, settings)));
          break;
        case "http-streaming":
          groups.push(...(await runHttpStreaming(fixture!, settings)));
          break;
        case "semantic-expansion":
          // Its own in-memory star schema; the shared fixture is not needed any more.
          await fixture?.close();
          fixture = undefined;
          expansion = await runExpansion(settings.quick ? { rows: 300_000, runs: 3 } : { rows: 1_000_000, runs: 7 });
          break;
        case "engine-scale":
          await runEngineScale(settings);
          break;
      }
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
