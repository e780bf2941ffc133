/**
 * "dashboard-cache": a dashboard's load, 32 HTTP clients cycling through the 10 distinct semantic
 * queries of one page, served by an Express handler (builder → execute() → `sendRows(res, cursor)` of
 * lib/express, which writes the rows as lossless JSON; a cache hit sends its entry's JSON body, made
 * on the entry's first hit) on an engine with the result cache (TTL 60 s), on one without it, and by a
 * hand-written handler that holds its own precomputed rows and writes them with `sendJson` per request
 * (the floor for the query: no query at all). Twice: on backend C (the
 * fixture's DuckDB file) and on backend A through the Snowflake stand-in with 50 ms per statement (a
 * remote warehouse; the stand-in runs in a worker thread, off the measured event loop). Counts the
 * warehouse statements the cached side sent (log events).
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine, type LogEvent } from "lib";
import { sendJson, sendRows, type JsonResponseTarget } from "lib/express";
import { standInConfig } from "../../test/support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { startStandInWorker } from "./stand-in-worker.js";
import type { BenchFixture } from "./fixture.js";
import {
  formatRoundRatio,
  printTable,
  roundRatio,
  wholeRunCase,
  type CaseResult,
  type GroupResult,
} from "./bench-harness.js";
import { startLoadWorker } from "./load-worker.js";
import {
  formatPooledRatio,
  gcPerThousand,
  interleavedLoad,
  medianOf,
  pooledPercentile,
  pooledRatio,
  type SideSlice,
} from "./interleaved-load.js";
import type { BenchSettings } from "./bench-settings.js";

const CLIENTS = 32;
const TTL_SECONDS = 60;
const STAND_IN_LATENCY_MS = 50;

/** The members both the bench fixture's `sales` view and the stand-in's `SALES` view declare. */
class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

/** The page's 10 panels: distinct dimensions, metrics, filters and orders. */
export const PANELS = [
  Sales.query().dimensions(Sales.country).metrics(Sales.revenue).orderBy(Sales.revenue.desc()),
  Sales.query().dimensions(Sales.country).metrics(Sales.cost).orderBy(Sales.country),
  Sales.query().dimensions(Sales.country).metrics(Sales.revenue, Sales.cost).orderBy(Sales.country),
  Sales.query().dimensions(Sales.region).metrics(Sales.revenue).orderBy(Sales.region),
  Sales.query().dimensions(Sales.country, Sales.region).metrics(Sales.revenue).orderBy(Sales.country, Sales.region),
  Sales.query().dimensions(Sales.region).metrics(Sales.revenue).where(Sales.country.eq("DE")).orderBy(Sales.region),
  Sales.query().dimensions(Sales.region).metrics(Sales.cost).where(Sales.country.eq("US")).orderBy(Sales.region),
  Sales.query().metrics(Sales.revenue, Sales.cost),
  Sales.query()
    .dimensions(Sales.region)
    .metrics(Sales.cost)
    .where(Sales.country.in(["FR", "JP"]))
    .orderBy(Sales.region),
  Sales.query().dimensions(Sales.region).metrics(Sales.revenue).orderBy(Sales.revenue.desc()).limit(5),
];

/**
 * The panels' Express app (`answer` writes panel i's response), a promise for the moment it has
 * answered every request it took, and the panels it was asked for.
 */
function panelApp(answer: (res: JsonResponseTarget, panel: number) => Promise<void> | void) {
  const app = express();
  let active = 0;
  let idle: (() => void) | undefined;
  const requested = new Set<number>();
  app.get("/panel/:i", async (req, res) => {
    active++;
    requested.add(Number(req.params.i));
    try {
      await answer(res, Number(req.params.i));
    } finally {
      if (--active === 0) idle?.();
    }
  });
  const drained = () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));
  return { app, drained, requested };
}

async function listen({ app, drained, requested }: ReturnType<typeof panelApp>) {
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, drained, requested, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const PATHS = PANELS.map((_, i) => `/panel/${i}`);

async function rowsOf(engine: Engine, panel: number): Promise<unknown[]> {
  await using cursor = await PANELS[panel]!.using(engine).execute();
  return await cursor.fetchAllRows();
}

/** lib's handler: the panel's query, its cursor sent as JSON (and closed) by `sendRows`. */
async function sendPanel(res: JsonResponseTarget, engine: Engine, panel: number): Promise<void> {
  await sendRows(res, await PANELS[panel]!.using(engine).execute());
}

/** Runs the three sides on one backend; `open` makes an engine with or without the cache. */
async function measure(
  label: string,
  open: (cache: boolean, log: (event: LogEvent) => void) => Engine,
  settings: BenchSettings,
): Promise<GroupResult> {
  let statements = 0;
  const cached = open(true, (event) => {
    if (event.type === "query" && event.servedFrom !== "cache" && /semantic_view|SEMANTIC_VIEW/.test(event.sql))
      statements++;
  });
  const uncached = open(false, () => undefined);
  const precomputed = await Promise.all(PANELS.map((_, i) => rowsOf(uncached, i)));
  const servers = await Promise.all([
    listen(panelApp((res, i) => sendPanel(res, cached, i))),
    listen(panelApp((res, i) => sendPanel(res, uncached, i))),
    listen(panelApp((res, i) => sendJson(res, precomputed[i]))),
  ]);
  const worker = await startLoadWorker();
  try {
    const [withCache, withoutCache, handWritten] = servers;
    // Many short slices rather than a few long ones: the p99 is judged on every measured response of a
    // side pooled over its rounds, and more rounds spread the machine's stalls more evenly over the sides.
    // 24 × 0.3 s (quick) / 36 × 0.6 s after 100 ms of warm-up: about the time 16 × 0.5 s / 24 × 1 s after
    // 150 ms took, about as many responses per side, and more rounds for the p99's resampled interval.
    const slice = { connections: CLIENTS, warmupMs: 100, measureMs: settings.quick ? 300 : 600 };
    const rounds = settings.quick ? 24 : 36;
    const started = performance.now();
    // The p99 goal is judged on cache vs hand-written, interleaved; no cache only needs its req/s.
    const paired = await interleavedLoad(
      worker,
      [
        { name: "cache", ...withCache!, paths: PATHS },
        { name: "hand", ...handWritten!, paths: PATHS },
      ],
      { ...slice, rounds },
    );
    const totalSeconds = (performance.now() - started) / 1000;
    const slow = await interleavedLoad(worker, [{ name: "nocache", ...withoutCache!, paths: PATHS }], {
      ...slice,
      rounds: 2,
    });
    const [cacheSlices, handSlices] = [paired.get("cache")!, paired.get("hand")!];
    const pooledP99 = pooledRatio(cacheSlices, handSlices, 99);
    const p99 = roundRatio(
      cacheSlices.map((s) => s.p99Ms),
      handSlices.map((s) => s.p99Ms),
    );
    const rpsVsHand = roundRatio(
      cacheSlices.map((s) => s.rps),
      handSlices.map((s) => s.rps),
    );
    const busy = roundRatio(
      cacheSlices.map((s) => s.mainThreadUsPerRequest),
      handSlices.map((s) => s.mainThreadUsPerRequest),
    );
    const stat = (slices: readonly SideSlice[]) => ({
      rps: medianOf(slices, (s) => s.rps),
      p99Ms: medianOf(slices, (s) => s.p99Ms),
      busyUs: medianOf(slices, (s) => s.mainThreadUsPerRequest),
    });
    const [c, n, h] = [stat(cacheSlices), stat(slow.get("nocache")!), stat(handSlices)];
    const pooled = { cache: pooledPercentile(cacheSlices, 99), hand: pooledPercentile(handSlices, 99) };
    const windows = Math.max(1, Math.ceil(totalSeconds / TTL_SECONDS));
    console.log(
      `\ndashboard-cache (${label}): ${CLIENTS} clients over ${PANELS.length} panels; cache and hand-written interleaved, ` +
        `${rounds} rounds × ${slice.measureMs / 1000} s per side after ${slice.warmupMs} ms of warm-up per slice; ` +
        "req/s and CPU: medians over rounds; p99: over every measured response of a side",
    );
    const row = (name: string, m: typeof c, ratio: string, p99Ms = m.p99Ms) => [
      name,
      m.rps.toFixed(0),
      `${p99Ms.toFixed(1)} ms`,
      `${m.busyUs.toFixed(0)} µs`,
      ratio,
    ];
    printTable(
      ["case", "req/s", "p99", "main-thread CPU/req", "ratio"],
      [
        row("lib, result cache", c, `${(c.rps / n.rps).toFixed(1)}× req/s of no cache`, pooled.cache),
        row("lib, no cache (2 slices, median p99)", n, "-"),
        row("hand-written, precomputed answers", h, "-", pooled.hand),
      ],
    );
    console.log(
      `cache / hand-written: p99 ${formatPooledRatio(pooledP99)} (goal ≤ 1.2×); main-thread CPU/request ${formatRoundRatio(busy)}`,
    );
    console.log(`per round, cache / hand-written: p99 ${formatRoundRatio(p99)}; req/s ${formatRoundRatio(rpsVsHand)}`);
    // What else the two sides pay unequally: collections on the servers' thread (their pauses land in
    // the tail) and the load generator's CPU per response (it shares the 2 cores with the servers).
    const gcs = [gcPerThousand(cacheSlices), gcPerThousand(handSlices)];
    const [gcText, workerText] = [
      gcs.map(
        (g) => `${g.count.toFixed(1)} collections, ${g.totalMs.toFixed(1)} ms (longest ${g.maxMs.toFixed(1)} ms)`,
      ),
      [cacheSlices, handSlices].map((side) => `${medianOf(side, (s) => s.workerUsPerRequest).toFixed(0)} µs`),
    ];
    console.log(
      `per 1,000 responses, servers' thread GC: cache ${gcText[0]}, hand-written ${gcText[1]}; ` +
        `load worker CPU per response: cache ${workerText[0]}, hand-written ${workerText[1]}`,
    );
    // Within one TTL window every panel asked for costs exactly one statement: another count means a
    // statement the log did not report, or one the cache should not have sent.
    const asked = withCache!.requested.size;
    const check = totalSeconds < TTL_SECONDS && statements !== asked ? ` ≠ ${asked} panels asked for` : "";
    console.log(
      `warehouse statements with the cache: ${statements} in ${totalSeconds.toFixed(0)} s (${(statements / windows).toFixed(1)} per ${TTL_SECONDS} s window; goal ≤ ${PANELS.length}); ` +
        `${asked} of ${PANELS.length} panels asked for${check}`,
    );
    const key = `dashboard-cache[${label}]`;
    const cases: CaseResult[] = [
      wholeRunCase("cache: µs per request (1 / req/s)", "lib", 1e6 / c.rps, [
        { baseline: "no cache", value: n.rps / c.rps },
      ]),
      wholeRunCase("no cache: µs per request", "info", 1e6 / n.rps, []),
      wholeRunCase("cache: p99 latency (pooled over rounds)", "lib", pooled.cache * 1000, [
        { baseline: "hand-written p99", value: pooledP99.value },
      ]),
      wholeRunCase("hand-written p99", "raw", pooled.hand * 1000, []),
    ];
    return {
      benchmark: "dashboard-cache",
      key,
      title: `dashboard load (${label})`,
      spread: { p99, rps: rpsVsHand, mainThreadUsPerRequest: busy },
      pooled: { p99: pooledP99 },
      note:
        `req/s cache ${c.rps.toFixed(0)}, no cache ${n.rps.toFixed(0)}, hand-written ${h.rps.toFixed(0)}; ${statements} warehouse statements with the cache; ` +
        `GC per 1,000 responses: cache ${gcText[0]}, hand-written ${gcText[1]}`,
      cases,
    };
  } finally {
    await worker.close();
    for (const { server } of servers) {
      server.close();
      server.closeAllConnections();
    }
    await cached.dispose();
    await uncached.dispose();
  }
}

/** Pool 5 + overflow 3 (as the example service), with or without the cache. */
function poolSettings(cache: boolean) {
  return { poolSize: 5, maxOverflow: 3, timeout: 60, ...(cache ? { cache: { ttl: TTL_SECONDS } } : {}) };
}

export async function runDashboardCache(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const onC = await measure(
    "backend C",
    (cache, log) => createEngine(new BackendCConfig({ database: fixture.file, ...poolSettings(cache) }), { log }),
    settings,
  );
  // In a worker thread: a remote warehouse's work does not run on the measured process's event loop.
  const standIn = await startStandInWorker(STAND_IN_LATENCY_MS);
  try {
    const onA = await measure(
      `backend A stand-in, ${STAND_IN_LATENCY_MS} ms per statement`,
      (cache, log) => createEngine(standInConfig(standIn, poolSettings(cache)), { log }),
      settings,
    );
    return [onC, onA];
  } finally {
    await standIn.close();
  }
}
