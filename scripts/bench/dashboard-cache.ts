/**
 * "dashboard-cache": a dashboard's load, 32 HTTP clients cycling through the 10 distinct semantic
 * queries of one page, served by an Express handler (builder → execute() → fetchAllRows() → lossless
 * JSON) on an engine with the result cache (TTL 60 s), on one without it, and by a hand-written handler
 * that holds its own precomputed answers (the floor: no query at all). Twice: on backend C (the
 * fixture's DuckDB file) and on backend A through the Snowflake stand-in with 50 ms per statement (a
 * remote warehouse; the stand-in runs in a worker thread, off the measured event loop). Counts the
 * warehouse statements the cached side sent (log events).
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import autocannon from "autocannon";
import express from "express";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine, type LogEvent } from "lib";
import { sendJson } from "lib/express";
import { standInConfig } from "../../test/support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { startStandInWorker } from "./stand-in-worker.js";
import type { BenchFixture } from "./fixture.js";
import { median, printTable, wholeRunCase, type CaseResult, type GroupResult } from "./bench-harness.js";
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

interface Side {
  readonly rps: number;
  readonly p99Ms: number;
}

function panelApp(answer: (panel: number) => Promise<unknown> | unknown): express.Express {
  const app = express();
  app.get("/panel/:i", async (req, res) => {
    sendJson(res, await answer(Number(req.params.i)));
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function load(url: string, seconds: number): Promise<Side> {
  const result = await autocannon({
    url,
    connections: CLIENTS,
    duration: seconds,
    workers: 1,
    requests: PANELS.map((_, i) => ({ method: "GET" as const, path: `/panel/${i}` })),
  });
  const errors = result.errors + result.non2xx;
  if (errors > 0) throw new Error(`dashboard-cache: ${errors} failed requests on ${url}`);
  return { rps: result.requests.average, p99Ms: result.latency.p99 };
}

async function rowsOf(engine: Engine, panel: number): Promise<unknown[]> {
  await using cursor = await PANELS[panel]!.using(engine).execute();
  return await cursor.fetchAllRows();
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
    listen(panelApp((i) => rowsOf(cached, i))),
    listen(panelApp((i) => rowsOf(uncached, i))),
    listen(panelApp((i) => precomputed[i])),
  ]);
  try {
    const [withCache, withoutCache, handWritten] = servers.map((s) => s.url);
    for (const url of [withCache!, withoutCache!, handWritten!]) await load(url, 1); // warm-up
    const seconds = settings.quick ? 3 : 10;
    const rounds = settings.quick ? 1 : 3;
    const runs: Record<"cache" | "nocache" | "hand", Side[]> = { cache: [], nocache: [], hand: [] };
    for (let round = 0; round < rounds; round++) {
      runs.cache.push(await load(withCache!, seconds));
      runs.nocache.push(await load(withoutCache!, seconds));
      runs.hand.push(await load(handWritten!, seconds));
    }
    const stat = (side: keyof typeof runs): Side => ({
      rps: median(runs[side].map((r) => r.rps)),
      p99Ms: median(runs[side].map((r) => r.p99Ms)),
    });
    const [c, n, h] = [stat("cache"), stat("nocache"), stat("hand")];
    const totalSeconds = rounds * seconds + 1;
    const windows = Math.max(1, Math.ceil(totalSeconds / TTL_SECONDS));
    console.log(
      `\ndashboard-cache (${label}): ${CLIENTS} clients over ${PANELS.length} panels, ${rounds} × ${seconds} s per side, ttl ${TTL_SECONDS} s`,
    );
    printTable(
      ["case", "req/s", "p99", "ratio"],
      [
        [
          "lib, result cache",
          c.rps.toFixed(0),
          `${c.p99Ms.toFixed(1)} ms`,
          `${(c.rps / n.rps).toFixed(1)}× req/s of no cache, p99 ${(c.p99Ms / h.p99Ms).toFixed(2)}× hand-written`,
        ],
        ["lib, no cache", n.rps.toFixed(0), `${n.p99Ms.toFixed(1)} ms`, "-"],
        ["hand-written, precomputed answers", h.rps.toFixed(0), `${h.p99Ms.toFixed(1)} ms`, "-"],
      ],
    );
    console.log(
      `warehouse statements with the cache: ${statements} in ${totalSeconds} s (${(statements / windows).toFixed(1)} per ${TTL_SECONDS} s window; goal ≤ ${PANELS.length})`,
    );
    const key = `dashboard-cache[${label}]`;
    const cases: CaseResult[] = [
      wholeRunCase("cache: µs per request (1 / req/s)", "lib", 1e6 / c.rps, [
        { baseline: "no cache", value: n.rps / c.rps },
      ]),
      wholeRunCase("no cache: µs per request", "info", 1e6 / n.rps, []),
      wholeRunCase("cache: p99 latency", "lib", c.p99Ms * 1000, [
        { baseline: "hand-written p99", value: c.p99Ms / h.p99Ms },
      ]),
      wholeRunCase("hand-written p99", "raw", h.p99Ms * 1000, []),
    ];
    return {
      benchmark: "dashboard-cache",
      key,
      title: `dashboard load (${label})`,
      note: `req/s cache ${c.rps.toFixed(0)}, no cache ${n.rps.toFixed(0)}, hand-written ${h.rps.toFixed(0)}; ${statements} warehouse statements with the cache`,
      cases,
    };
  } finally {
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
