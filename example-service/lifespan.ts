/**
 * Service lifespan: register the engine as "default" before serving; on shutdown stop accepting,
 * let in-flight requests finish, then unregister and dispose the engine (in that order).
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { register, unregister } from "lib";
import { createApp } from "./app.js";
import type { Engine } from "./engine-type.js";
import { consoleLogger, type Logger } from "./logger.js";

export interface ServiceOptions {
  /** Created once by the caller; the service owns it from here and disposes it at shutdown. */
  readonly engine: Engine;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default: all interfaces. */
  readonly host?: string;
  readonly logger?: Logger;
}

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
  const host = options.host === undefined || options.host === "" || options.host === "0.0.0.0" ? "localhost" : options.host;
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
      await new Promise<void>((resolve, reject) => {
        // close() stops accepting and resolves once every in-flight request has been answered.
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would otherwise hold close() open until they time out.
        server.closeIdleConnections();
      });
      unregister("default");
      await options.engine.dispose();
      logger.info("engine unregistered and disposed");
    })());

  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`, server, shutdown };
}
