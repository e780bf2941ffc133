/**
 * A client that reads slowly keeps the server's memory bounded: NDJSON and Arrow IPC streams wait on
 * the socket's backpressure instead of reading the rest of the result into memory. A `wide` view of
 * 300,000 rows (a 64-character fact per row: ~30 MB of NDJSON, ~23 MB of Arrow) is streamed to a
 * client that stops reading. The rows the server has pulled from DuckDB (every chunk node-api hands
 * to JS, counted once when a reader first asks its `rowCount`, as every reader does) must stay far
 * below the result while the client holds back, and a bounded distance ahead of what it has received
 * as it reads on in bites. A server that buffers (writes without waiting for `drain`) pulls the whole
 * result at once and fails. The router listens on a Unix socket: its kernel buffers have a fixed
 * size, where loopback TCP's grow with the reader's pace up to tens of MB and would blur the bound.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBDataChunk } from "@duckdb/node-api";
import { expect } from "chai";
import express from "express";
import { BackendCConfig, createEngine, Dimension, Fact, SemanticView, type Engine } from "lib";
import { semanticRouter } from "lib/express";

const ROWS = 300_000;
/**
 * How far the server may run ahead of the client, per format: the text or batch being written, the
 * chunk (NDJSON) or batch (Arrow, 65,536 rows) being read, the chunk read ahead and the socket's
 * buffers. A buffering server is ahead by the whole result.
 */
const MAX_AHEAD_ROWS = { NDJSON: 16 * 2_048, "Arrow IPC": 2 * 65_536 } as const;

class Wide extends SemanticView("wide", {
  id: Dimension<bigint>(),
  payload: Fact<string>(),
}) {}

const FORMATS = [
  { accept: "application/x-ndjson", name: "NDJSON" },
  { accept: "application/vnd.apache.arrow.stream", name: "Arrow IPC" },
] as const;

function wideEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", async (conn) => {
    await conn.run(
      `CREATE TABLE wide_data AS SELECT i::BIGINT AS id, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS payload
       FROM range(${ROWS}) t(i)`,
    );
    await conn.run(`CREATE SEMANTIC VIEW wide AS TABLES (w AS wide_data PRIMARY KEY (id))
      FACTS (w.payload AS payload) DIMENSIONS (w.id AS id)`);
    await conn.commit();
  });
  return engine;
}

/** Counts the rows of every DuckDB chunk read (each chunk once) until restored. */
class PulledRows {
  rows = 0;
  readonly #rowCount = Object.getOwnPropertyDescriptor(DuckDBDataChunk.prototype, "rowCount")!;

  constructor() {
    const seen = new WeakSet<object>();
    const rowCount = this.#rowCount.get!;
    const count = (rows: number) => (this.rows += rows);
    Object.defineProperty(DuckDBDataChunk.prototype, "rowCount", {
      configurable: true,
      get(this: DuckDBDataChunk) {
        const rows = rowCount.call(this) as number;
        if (!seen.has(this)) {
          seen.add(this);
          count(rows);
        }
        return rows;
      },
    });
  }

  restore(): void {
    Object.defineProperty(DuckDBDataChunk.prototype, "rowCount", this.#rowCount);
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 25));

/**
 * Waits until the server stops pulling rows (the count unchanged across several polls) or has pulled
 * them all; returns the count.
 */
async function settled(pulled: PulledRows): Promise<number> {
  let last = -1;
  for (let still = 0; still < 3 && last < ROWS;) {
    await tick();
    still = pulled.rows === last ? still + 1 : 0;
    last = pulled.rows;
  }
  return last;
}

/** Reads at least `bytes` from a paused response, then pauses it again; false at its end. */
function readSome(response: IncomingMessage, bytes: number, onData: (chunk: Buffer) => void): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let read = 0;
    const data = (chunk: Buffer) => {
      onData(chunk);
      read += chunk.length;
      if (read >= bytes) finish(true);
    };
    const finish = (more: boolean) => {
      response.pause();
      response.off("data", data).off("end", end).off("error", reject);
      resolve(more);
    };
    const end = () => finish(false);
    response.on("data", data).once("end", end).once("error", reject);
    response.resume();
  });
}

describe("semantic router: a slow reader keeps the server's memory bounded", function () {
  this.timeout(60_000);
  let engine: Engine;
  let server: Server;
  const folder = mkdtempSync(join(tmpdir(), "lib-slow-reader-"));
  const socketPath = join(folder, "router.sock");

  before(async function () {
    engine = wideEngine();
    const app = express();
    app.use("/api", semanticRouter({ views: { Wide }, engine }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(socketPath, () => resolve(s));
    });
  });
  after(async function () {
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await engine?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  for (const { accept, name } of FORMATS) {
    it(`${name}: the server pulls rows only as fast as the client reads them`, async () => {
      const pulled = new PulledRows();
      const path = "/api/views/wide/query?dimensions=id&facts=payload";
      const request = httpRequest({ socketPath, path, headers: { accept } });
      try {
        const response = await new Promise<IncomingMessage>((resolve, reject) => {
          request.on("response", resolve).on("error", reject).end();
        });
        expect(response.statusCode).to.equal(200);
        response.pause();
        let received = 0;
        let newlines = 0;
        const count = (chunk: Buffer) => {
          received += chunk.length;
          if (name === "NDJSON")
            for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++;
        };

        // The client holds back: the server stops far short of the result.
        const pulledWhilePaused = await settled(pulled);
        const maxAhead = MAX_AHEAD_ROWS[name];
        expect(pulledWhilePaused, "rows pulled while the client reads nothing").to.be.at.most(maxAhead);

        // It reads on in 2 MB bites: the server stays a bounded distance ahead; then to the end.
        // Rows received: NDJSON counts its lines; an Arrow row is at least 76 bytes (id, payload, offset).
        const rowsReceived = () => (name === "NDJSON" ? newlines : Math.ceil(received / 76));
        const ahead: number[] = [];
        for (let bite = 0; bite < 4; bite++) {
          expect(await readSome(response, 2 * 1024 * 1024, count), "the stream still runs").to.equal(true);
          ahead.push((await settled(pulled)) - rowsReceived());
        }
        expect(Math.max(...ahead), "rows pulled ahead of what the client received").to.be.at.most(maxAhead);
        expect(await readSome(response, Infinity, count)).to.equal(false);
        if (name === "NDJSON") expect(newlines).to.equal(ROWS);
        else expect(received).to.be.above(ROWS * 64);
        for (let i = 0; i < 200 && engine._pool.borrowed !== 0; i++) await tick();
        expect(engine._pool.borrowed, "the connection came back").to.equal(0);
      } finally {
        pulled.restore();
        request.destroy();
      }
    });
  }
});
