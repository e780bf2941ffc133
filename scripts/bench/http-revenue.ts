/**
 * "http-revenue": `GET /revenue` of the example service (its real Express app and route: builder →
 * execute() → into() → lossless JSON) at 32 concurrent clients, against a hand-written Express
 * handler running the equivalent SQL on raw `@duckdb/node-api` connections. Both serve the fixture's
 * database from this process (engine pool 5 + overflow 3; 8 raw connections); the load comes from
 * autocannon in one worker thread for the whole group. The two sides are interleaved in short
 * slices, the first side rotating each round, each slice warmed up before it is measured
 * (`interleaved-load.ts`): req/s judged on the median of per-round ratios (with range and IQR), p99
 * over every measured response of a side.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { BackendCConfig, createEngine } from "lib";
import { createApp } from "../../example-service/app.js";
import { openFixture, type BenchFixture } from "./fixture.js";
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
  drainable,
  formatPooledRatio,
  interleavedLoad,
  medianOf,
  pooledPercentile,
  pooledRatio,
} from "./interleaved-load.js";
import { openRawPool, type RawPool } from "./raw-pool.js";
import { RAW_SQL, RAW_SQL_FILTERED } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

const CLIENTS = 32;
const silent = { info: () => undefined, error: (message: string) => console.error(message) };

function rawApp(pool: RawPool): express.Express {
  const app = express();
  app.set("query parser", "simple");
  app.get("/revenue", async (req, res) => {
    const country =
      typeof req.query["country"] === "string" && req.query["country"] !== "" ? req.query["country"] : undefined;
    const rows = await pool.use(async (conn) =>
      (
        await conn.runAndReadAll(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined)
      ).getRowObjectsJS(),
    );
    res.json(rows.map((r) => ({ country: r["country"], revenue: Number(r["revenue"]) })));
  });
  return app;
}

async function listen(app: express.Express) {
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, drained: drainable(server), url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The small table where the library's own per-request cost shows (the statement itself takes little). */
export const SMALL_TABLE_ROWS = 20_000;

/** On the run's table, and on a small one (unless the run's table is that small already). */
export async function runHttpRevenue(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const results = [await measureHttpRevenue(fixture, settings, "http-revenue")];
  if (fixture.rows > SMALL_TABLE_ROWS) {
    const small = await openFixture(SMALL_TABLE_ROWS, { register: false });
    try {
      results.push(await measureHttpRevenue(small, settings, "http-revenue[20k]"));
    } finally {
      await small.close();
    }
  }
  return results;
}

async function measureHttpRevenue(fixture: BenchFixture, settings: BenchSettings, key: string): Promise<GroupResult> {
  await using engine = createEngine(
    new BackendCConfig({ database: fixture.file, poolSize: 5, maxOverflow: 3, timeout: 60 }),
  );
  const pool = await openRawPool(fixture.instance, 8);
  const lib = await listen(createApp({ engine, logger: silent }));
  const raw = await listen(rawApp(pool));
  try {
    const [libBody, rawBody] = await Promise.all([
      fetch(`${lib.url}/revenue`).then((r) => r.json()),
      fetch(`${raw.url}/revenue`).then((r) => r.json()),
    ]);
    if (JSON.stringify(libBody) !== JSON.stringify(rawBody))
      throw new Error("http-revenue: the two services answer differently");

    const worker = await startLoadWorker();
    const options = {
      rounds: settings.quick ? 6 : 10,
      connections: CLIENTS,
      warmupMs: 250,
      measureMs: settings.quick ? 1000 : 2000,
    };
    let slices;
    try {
      slices = await interleavedLoad(
        worker,
        [
          { name: "lib", ...lib, paths: ["/revenue"] },
          { name: "raw", ...raw, paths: ["/revenue"] },
        ],
        options,
      );
    } finally {
      await worker.close();
    }
    const [libSlices, rawSlices] = [slices.get("lib")!, slices.get("raw")!];
    const rps = roundRatio(
      libSlices.map((x) => x.rps),
      rawSlices.map((x) => x.rps),
    );
    const p99 = pooledRatio(libSlices, rawSlices, 99);
    const busy = roundRatio(
      libSlices.map((x) => x.mainThreadUsPerRequest),
      rawSlices.map((x) => x.mainThreadUsPerRequest),
    );
    const stats = (side: typeof libSlices) => ({
      rps: medianOf(side, (x) => x.rps),
      p99Ms: pooledPercentile(side, 99),
      busyUs: medianOf(side, (x) => x.mainThreadUsPerRequest),
    });
    const l = stats(libSlices);
    const r = stats(rawSlices);
    console.log(
      `\nhttp-revenue: GET /revenue, ${CLIENTS} concurrent clients, lib and raw interleaved, ${options.rounds} rounds × ` +
        `${options.measureMs / 1000} s per side after ${options.warmupMs} ms of warm-up per slice (${fixture.rows.toLocaleString("en-US")} fact rows)`,
    );
    printTable(
      ["case", "req/s", "p99", "main-thread CPU/req", "lib/raw"],
      [
        [
          "lib example service (pool 5 + overflow 3)",
          l.rps.toFixed(0),
          `${l.p99Ms.toFixed(1)} ms`,
          `${l.busyUs.toFixed(0)} µs`,
          `${rps.median.toFixed(2)}× req/s, ${p99.value.toFixed(2)}× p99`,
        ],
        [
          "raw Express + @duckdb/node-api (8 connections)",
          r.rps.toFixed(0),
          `${r.p99Ms.toFixed(1)} ms`,
          `${r.busyUs.toFixed(0)} µs`,
          "-",
        ],
      ],
    );
    console.log(
      `lib / raw: req/s per round ${formatRoundRatio(rps)} (goal ≥ 0.90×); p99 ${formatPooledRatio(p99)}; ` +
        `main-thread CPU/request per round ${formatRoundRatio(busy)}`,
    );
    // As µs per request (1 / throughput) and p99, so the summary's lib/raw reads like the others (lower is better).
    const cases: CaseResult[] = [
      wholeRunCase("GET /revenue µs per request (1 / req/s, median of per-round ratios)", "lib", 1e6 / l.rps, [
        { baseline: "raw 1 / req/s", value: 1 / rps.median },
      ]),
      wholeRunCase("raw 1 / req/s", "raw", 1e6 / r.rps, []),
      wholeRunCase("GET /revenue p99 latency (pooled over rounds)", "lib", l.p99Ms * 1000, [
        { baseline: "raw p99", value: p99.value },
      ]),
      wholeRunCase("raw p99", "raw", r.p99Ms * 1000, []),
    ];
    return {
      benchmark: "http-revenue",
      key,
      title: `GET /revenue over HTTP (${fixture.rows.toLocaleString("en-US")} fact rows)`,
      note: `req/s lib ${l.rps.toFixed(0)}, raw ${r.rps.toFixed(0)}`,
      spread: { rps, mainThreadUsPerRequest: busy },
      pooled: { p99 },
      cases,
    };
  } finally {
    lib.server.close();
    raw.server.close();
    lib.server.closeAllConnections();
    raw.server.closeAllConnections();
    // Requests the load generator wrote just before it stopped still run their queries (their
    // sockets are gone, so `drained` did not wait for them): let them end before the pools do.
    await new Promise((resolve) => setImmediate(resolve));
    for (let waited = 0; waited < 5_000 && engine._pool.borrowed + engine._pool.pending > 0; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await pool.close();
  }
}
