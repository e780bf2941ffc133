/**
 * Service lifespan: register the engine as "default" before serving; on shutdown stop accepting,
 * let in-flight requests finish (for at most `shutdownTimeoutMs`; then their sockets are cut), then
 * unregister and dispose the engine (in that order; dispose has its own `dispose_timeout`).
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { register, unregister, type Engine } from "lib";
import { createApp } from "./app.js";
import { consoleLogger, type Logger } from "./logger.js";

export interface ServiceOptions {
  /** Created once by the caller; the service owns it from here and disposes it at shutdown. */
  readonly engine: Engine;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default: all interfaces. */
  readonly host?: string;
  readonly logger?: Logger;
  /** How long shutdown waits for in-flight requests before cutting their connections (default 10 s). */
  readonly shutdownTimeoutMs?: number;
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface RunningService {
  readonly url: string;
  readonly server: Server;
  /** Idempotent: later calls return the first call's promise. */
  shutdown(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const logger = options.logger ?? consoleLogger;
  register("default", options.engine);
  const app = createApp({ logger });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const done = (error?: Error): void => (error ? reject(error) : resolve(s));
      const s = options.host ? app.listen(options.port, options.host, done) : app.listen(options.port, done);
    });
  } catch (error) {
    unregister("default");
    await options.engine.dispose();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host =
    options.host === undefined || options.host === "" || options.host === "0.0.0.0" ? "localhost" : options.host;
  let stopping: Promise<void> | undefined;
  // A keep-alive socket whose last response finishes after shutdown began would keep close()
  // waiting for the client to hang up; close it as soon as it is idle.
  server.on("request", (_req, res) => {
    res.once("finish", () => {
      if (stopping !== undefined) setImmediate(() => server.closeIdleConnections());
    });
  });

  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      logger.info("shutting down: no new connections, waiting for in-flight requests");
      const deadlineMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      let deadline: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        // close() stops accepting and resolves once every in-flight request has been answered.
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would otherwise hold close() open until they time out.
        server.closeIdleConnections();
        // A request stuck on an unresponsive warehouse must not hold the shutdown forever.
        deadline = setTimeout(() => {
          logger.info(`shutdown: requests still in flight after ${deadlineMs} ms; closing their connections`);
          server.closeAllConnections();
        }, deadlineMs);
        deadline.unref();
      }).finally(() => clearTimeout(deadline));
      unregister("default");
      await options.engine.dispose();
      logger.info("engine unregistered and disposed");
    })());

  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`, server, shutdown };
}
