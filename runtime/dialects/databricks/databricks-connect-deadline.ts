/**
 * A deadline on establishing each connection to the warehouse (TCP and TLS), separate from
 * `socket_timeout`, which bounds silence on an established connection. Without it a host that
 * accepts TCP but never completes TLS (or a firewall that drops packets) held a session open for
 * the whole `socket_timeout` (2 min by default) per attempt. `@databricks/sql` makes its own
 * https.Agent; its `createConnection` is wrapped so every new socket not connected in time is
 * destroyed with a clear error (the driver then fails the call, or retries within its budget).
 * A proxy agent is left alone: its connect goes to the proxy.
 */
import https from "node:https";
import type { Socket } from "node:net";
import type { DBSQLClient } from "@databricks/sql";

/** `connect_timeout` when unset. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const BOUNDED = Symbol("lib.connectDeadline");

type CreateConnection = (options: unknown, callback?: unknown) => Socket;

/** Bounds the connect phase of every socket the client's agent opens from now on (idempotent). */
export async function boundConnects(client: DBSQLClient, timeoutMs: number): Promise<void> {
  if (timeoutMs <= 0) return;
  const agent = await (await client.getConnectionProvider()).getAgent();
  if (!(agent instanceof https.Agent)) return;
  const bounded = agent as https.Agent & { [BOUNDED]?: true; createConnection: CreateConnection };
  if (bounded[BOUNDED] === true) return;
  bounded[BOUNDED] = true;
  const create = bounded.createConnection.bind(agent);
  bounded.createConnection = (options, callback) => {
    const socket = create(options, callback);
    const timer = setTimeout(() => {
      socket.destroy(
        Object.assign(new Error(`backend_b: no connection to the warehouse within connect_timeout (${timeoutMs} ms)`), {
          code: "ETIMEDOUT",
        }),
      );
    }, timeoutMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    socket.once("secureConnect", done);
    socket.once("close", done);
    return socket;
  };
}
