/**
 * "http-streaming": every row of `sales_data` (1M in a full run) streamed over HTTP by
 * `semanticRouter` as NDJSON and as an Arrow IPC stream (row-level facts through the builder and the
 * built-in semantic layer, read by a client that discards the bytes), against the raw driver reading
 * the same rows chunk by chunk (`yieldRowObjectJs`) in the same run. Also the service's peak RSS growth
 * (and JS memory growth) over a baseline taken after a collection, sampled every 20 ms while each stream
 * runs (goal ≤ 64 MB). Server and client share this process, so the client's reading is included.
 */
import { get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { semanticRouter } from "lib/express";
import type { BenchFixture } from "./fixture.js";
import { Sales } from "./revenue-by-country.js";
import { gc, measureGroup, printTable, type GroupResult } from "./bench-harness.js";
import type { BenchSettings } from "./bench-settings.js";
import { rawStreamedRows } from "./raw-stream.js";
import { watchPeakRss } from "./peak-rss.js";

const SQL = "SELECT id, country, revenue, amount, sold_on FROM sales_data";
const QUERY = "dimensions=country&facts=sale_id,unit_revenue,amount,sold_on";
const MB = 2 ** 20;

/** GETs `url`, discarding the body; resolves with the bytes and the newlines received. */
function drain(url: string, accept: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { accept } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`http-streaming: ${url} answered ${response.statusCode}`));
      let bytes = 0;
      let lines = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      response.on("end", () => resolve({ bytes, lines }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

export async function runHttpStreaming(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const { engine, raw, rows } = fixture;
  const app = express();
  app.use("/api", semanticRouter({ views: [Sales], engine }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/views/sales/query?${QUERY}`;
  const ndjson = async () => void (await drain(url, "application/x-ndjson"));
  const arrow = async () => void (await drain(url, "application/vnd.apache.arrow.stream"));
  try {
    // Per stream: a baseline after two collections and a pause (so memory freed by whatever ran before
    // has gone back to the OS and does not mask the stream's growth), then RSS and the JS memory (heap,
    // external, array buffers) sampled every 20 ms while the whole result is served and read; RSS also
    // as the kernel's high-water mark where Linux keeps one (peak-rss.ts), which no sample misses.
    const memory: string[][] = [];
    const jsMemory = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    for (const [name, accept] of [
      ["NDJSON", "application/x-ndjson"],
      ["Arrow IPC", "application/vnd.apache.arrow.stream"],
    ] as const) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 500));
      gc();
      const peakSince = watchPeakRss();
      const baseline = { rss: process.memoryUsage.rss(), js: jsMemory() };
      const peak = { ...baseline };
      const sample = () => {
        peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
        peak.js = Math.max(peak.js, jsMemory());
      };
      const timer = setInterval(sample, 20);
      const started = performance.now();
      const { bytes, lines } = await drain(url, accept);
      clearInterval(timer);
      sample();
      peak.rss = Math.max(peak.rss, peakSince());
      // Every row arrives: one NDJSON line per row.
      if (name === "NDJSON" && lines !== rows)
        throw new Error(`http-streaming: NDJSON had ${lines} lines, expected ${rows}`);
      memory.push([
        `${name} ${rows.toLocaleString("en-US")} rows`,
        `${((peak.rss - baseline.rss) / MB).toFixed(1)} MB`,
        `${((peak.js - baseline.js) / MB).toFixed(1)} MB`,
        `${(bytes / MB).toFixed(0)} MB sent`,
        `${((performance.now() - started) / 1000).toFixed(2)} s`,
      ]);
    }
    console.log("\nhttp-streaming: the service's peak RSS growth while a stream runs (goal ≤ 64 MB)");
    printTable(["stream", "peak RSS growth", "peak JS memory growth", "body", "time"], memory);

    const group = await measureGroup({
      benchmark: "http-streaming",
      title: `http-streaming: ${rows.toLocaleString("en-US")} rows over HTTP vs the raw driver's chunks (${SQL})`,
      rowsPerOp: rows,
      warmupRounds: 1,
      rounds: settings.quick ? 3 : 5,
      minRounds: settings.quick ? 2 : 3,
      budgetMs: settings.quick ? 15_000 : 90_000,
      gcBetweenSamples: true,
      cases: [
        { name: "HTTP NDJSON", role: "lib", baselines: ["raw stream yieldRowObjectJs()"], run: ndjson },
        { name: "HTTP Arrow IPC", role: "lib", baselines: ["raw stream yieldRowObjectJs()"], run: arrow },
        {
          name: "raw stream yieldRowObjectJs()",
          role: "raw",
          run: async () => {
            const n = await rawStreamedRows(raw, SQL);
            if (n !== rows) throw new Error(`http-streaming: raw read ${n} rows`);
          },
        },
      ],
      note: `peak RSS growth (JS memory growth): ${memory.map((m) => `${m[0]} ${m[1]} (${m[2]})`).join("; ")}. lib's side includes the semantic expansion, exact value conversion, serialization and the HTTP transfer.`,
    });
    return [group];
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
