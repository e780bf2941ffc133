/**
 * A loopback stand-in for the cloud storage CloudFetch downloads result files from: a separate
 * HTTPS server (same certificate as the warehouse stand-in) serving each file once under an
 * unguessable path that needs the presigned-style header the result link carries, and refusing
 * requests that carry an Authorization header (a presigned URL must not receive the warehouse token).
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { Socket } from "node:net";

export const SIGNATURE_HEADER = "x-stand-in-signature";

export class CloudStorage {
  downloads = 0;
  /** Requests refused (missing signature, or an Authorization header). */
  readonly refused: string[] = [];
  readonly #files = new Map<string, { bytes: Buffer; signature: string }>();
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #port = 0;

  private constructor(key: string | Buffer, cert: string | Buffer) {
    this.#server = createServer({ key, cert }, (req, res) => {
      const file = this.#files.get(req.url?.split("?")[0] ?? "");
      const problem =
        file === undefined
          ? "no such file"
          : req.headers.authorization !== undefined
            ? "Authorization header sent to storage"
            : req.headers[SIGNATURE_HEADER] !== file.signature
              ? "bad signature"
              : undefined;
      if (problem !== undefined || file === undefined) {
        this.refused.push(problem ?? "no such file");
        res.writeHead(403, { "content-type": "text/plain" }).end(problem);
        return;
      }
      this.downloads++;
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(file.bytes);
    });
    this.#server.on("connection", (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  static async start(key: string | Buffer, cert: string | Buffer): Promise<CloudStorage> {
    const storage = new CloudStorage(key, cert);
    await new Promise<void>((resolve, reject) => {
      storage.#server.once("error", reject);
      storage.#server.listen(0, "127.0.0.1", () => resolve());
    });
    storage.#port = (storage.#server.address() as { port: number }).port;
    return storage;
  }

  /** Stores a file; returns its URL and the headers a download must send. */
  put(bytes: Buffer): { url: string; headers: Record<string, string> } {
    const path = `/results/${randomUUID()}`;
    const signature = randomUUID();
    this.#files.set(path, { bytes, signature });
    return { url: `https://127.0.0.1:${this.#port}${path}?sig=stand-in`, headers: { [SIGNATURE_HEADER]: signature } };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
    });
  }
}
