/**
 * A loopback stand-in for the cloud storage Snowflake puts large result chunks on: a separate
 * server (its own port) serving each chunk gzip-encoded, as S3 does, only to requests that carry the
 * SSE-C headers the sdk builds from the response's `qrmk`, and refusing any request that carries the
 * session's Authorization header (storage must never see the Snowflake token).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";

const KEY_HEADER = "x-amz-server-side-encryption-customer-key";
const ALGORITHM_HEADER = "x-amz-server-side-encryption-customer-algorithm";

export class ChunkStorage {
  downloads = 0;
  /** Requests refused, with the reason. */
  readonly refused: string[] = [];
  /** The query result master key the sdk must send back (base64, as Snowflake's). */
  readonly qrmk = randomBytes(32).toString("base64");
  readonly #chunks = new Map<string, Buffer>();
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #port = 0;

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunk = this.#chunks.get(req.url?.split("?")[0] ?? "");
      const problem =
        chunk === undefined
          ? "no such chunk"
          : req.headers.authorization !== undefined
            ? "Authorization header sent to storage"
            : req.headers[KEY_HEADER] !== this.qrmk || req.headers[ALGORITHM_HEADER] !== "AES256"
              ? "missing or wrong SSE-C headers"
              : undefined;
      if (problem !== undefined || chunk === undefined) {
        this.refused.push(problem ?? "no such chunk");
        res
          .writeHead(403, { "Content-Type": "application/xml" })
          .end(`<Error><Code>AccessDenied</Code><Message>${problem}</Message></Error>`);
        return;
      }
      this.downloads++;
      res.writeHead(200, { "Content-Type": "binary/octet-stream", "Content-Encoding": "gzip" }).end(chunk);
    });
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  static async start(): Promise<ChunkStorage> {
    const storage = new ChunkStorage();
    await new Promise<void>((resolve, reject) => {
      storage.#server.once("error", reject);
      storage.#server.listen(0, "127.0.0.1", () => resolve());
    });
    storage.#port = (storage.#server.address() as AddressInfo).port;
    return storage;
  }

  /** Stores the rows of one chunk (JSON arrays without the outer brackets); returns its URL. */
  put(rows: readonly (readonly (string | null)[])[]): {
    url: string;
    uncompressedSize: number;
    compressedSize: number;
  } {
    const text = Buffer.from(rows.map((row) => JSON.stringify(row)).join(","), "utf8");
    const gz = gzipSync(text);
    const path = `/results/${randomUUID()}/main/data_0_0_${this.#chunks.size}`;
    this.#chunks.set(path, gz);
    return {
      url: `http://127.0.0.1:${this.#port}${path}?x-amz-signature=stand-in`,
      uncompressedSize: text.length,
      compressedSize: gz.length,
    };
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}
