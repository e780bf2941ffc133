/**
 * "http-revenue": `GET /revenue` of the example service (its real Express app and route: builder →
 * execute() → into() → lossless JSON) at 32 concurrent clients, against a hand-written Express
 * handler running the equivalent SQL on raw `@duckdb/node-api` connections. Both serve the fixture's
 * database from this process (engine pool 5 + overflow 3; 8 raw connections); the load comes from
 * autocannon in a worker thread. Reports requests/s and p99 latency per side, median over rounds.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import autocannon from "autocannon";
import express from "express";
import { BackendCConfig, createEngine } from "lib";
import { createApp } from "../../example-service/app.js";
import { openFixture, type BenchFixture } from "./fixture.js";
import { median, printTable, wholeRunCase, type CaseResult, type GroupResult } from "./bench-harness.js";
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

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function load(url: string, seconds: number): Promise<{ rps: number; p99Ms: number; errors: number }> {
  const result = await autocannon({ url: `${url}/revenue`, connections: CLIENTS, duration: seconds, workers: 1 });
  return { rps: result.requests.average, p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
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

    const seconds = settings.quick ? 2 : 10;
    // Rounds alternate which side goes first; a median over 3 keeps one noisy second from deciding.
    const rounds = 3;
    await load(lib.url, 1); // warm-up: pools filled, JIT warm
    await load(raw.url, 1);
    const runs = { lib: [] as { rps: number; p99Ms: number }[], raw: [] as { rps: number; p99Ms: number }[] };
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (["lib", "raw"] as const) : (["raw", "lib"] as const)) {
        const run = await load(side === "lib" ? lib.url : raw.url, seconds);
        if (run.errors > 0) throw new Error(`http-revenue: ${run.errors} failed requests on the ${side} side`);
        runs[side].push(run);
      }
    }
    const stats = (side: "lib" | "raw") => ({
      rps: median(runs[side].map((r) => r.rps)),
      p99Ms: median(runs[side].map((r) => r.p99Ms)),
    });
    const l = stats("lib");
    const r = stats("raw");
    console.log(
      `\nhttp-revenue: GET /revenue, ${CLIENTS} concurrent clients, ${rounds} × ${seconds} s per side (${fixture.rows.toLocaleString("en-US")} fact rows)`,
    );
    printTable(
      ["case", "req/s", "p99", "lib/raw"],
      [
        [
          "lib example service (pool 5 + overflow 3)",
          l.rps.toFixed(0),
          `${l.p99Ms.toFixed(1)} ms`,
          `${(l.rps / r.rps).toFixed(2)}× req/s, ${(l.p99Ms / r.p99Ms).toFixed(2)}× p99`,
        ],
        ["raw Express + @duckdb/node-api (8 connections)", r.rps.toFixed(0), `${r.p99Ms.toFixed(1)} ms`, "-"],
      ],
    );
    // As µs per request (1 / throughput) and p99, so the summary's lib/raw reads like the others (lower is better).
    const cases: CaseResult[] = [
      wholeRunCase("GET /revenue µs per request (1 / req/s)", "lib", 1e6 / l.rps, [
        { baseline: "raw 1 / req/s", value: r.rps / l.rps },
      ]),
      wholeRunCase("raw 1 / req/s", "raw", 1e6 / r.rps, []),
      wholeRunCase("GET /revenue p99 latency", "lib", l.p99Ms * 1000, [
        { baseline: "raw p99", value: l.p99Ms / r.p99Ms },
      ]),
      wholeRunCase("raw p99", "raw", r.p99Ms * 1000, []),
    ];
    return {
      benchmark: "http-revenue",
      key,
      title: `GET /revenue over HTTP (${fixture.rows.toLocaleString("en-US")} fact rows)`,
      note: `req/s lib ${l.rps.toFixed(0)}, raw ${r.rps.toFixed(0)}`,
      cases,
    };
  } finally {
    lib.server.close();
    raw.server.close();
    lib.server.closeAllConnections();
    raw.server.closeAllConnections();
    await pool.close();
  }
}
