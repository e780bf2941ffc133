import { createServer, type Server } from "node:http";

/**
 * A stand-in for a warehouse that came back after an outage, on a given port: every request is
 * answered with a statement error, so requests the sdk is still retrying from before the outage
 * end at their next attempt. `requests` counts what arrived.
 */
export class ReturningWarehouse {
  requests = 0;
  readonly #server: Server;
  private constructor(server: Server) {
    this.#server = server;
  }

  static async listen(port: number): Promise<ReturningWarehouse> {
    let warehouse: ReturningWarehouse | undefined;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        warehouse!.requests++;
        res.writeHead(200, { "Content-Type": "application/json", Connection: "close" });
        res.end(
          JSON.stringify({
            success: false,
            code: "000605",
            message: "Identified SQL statement is not currently executing.",
            data: { sqlState: "01000" },
          }),
        );
      });
    });
    warehouse = new ReturningWarehouse(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    return warehouse;
  }

  /** Resolves once `n` requests arrived (or after `timeoutMs`). */
  async waitForRequests(n: number, timeoutMs: number): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (this.requests < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return this.requests;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
