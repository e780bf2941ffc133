/**
 * Runs an MCP server on a transport of the SDK: stdio (what desktop agents spawn), or Streamable
 * HTTP at `http://host:port/mcp`, stateless (each POST is served by a fresh SDK server over the same
 * tools, so nothing per session is kept), bound to loopback by default with the SDK's DNS-rebinding
 * protection on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { importPeer } from "../packages/peer-package.js";
import { createMcpServer, type McpServer, type McpServerOptions } from "./mcp-server.js";

export type McpTransportOptions =
  { readonly transport: "stdio" } | { readonly transport: "http"; readonly port?: number; readonly host?: string };

export interface RunningMcp extends AsyncDisposable {
  /** The Streamable HTTP endpoint (`http://127.0.0.1:port/mcp`); undefined on stdio. */
  readonly url: string | undefined;
  /** Resolves when the transport ends (stdin closed, or `close()`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const SDK = { name: "@modelcontextprotocol/sdk", usedFor: "lib/mcp (the MCP server)" };

async function serveStdio(server: McpServer): Promise<RunningMcp> {
  const { StdioServerTransport } = await importPeer(SDK, () => import("@modelcontextprotocol/sdk/server/stdio.js"));
  const transport = new StdioServerTransport();
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  transport.onclose = finish;
  process.stdin.once("end", finish);
  await server.connect(transport);
  const close = async () => {
    await server.close();
    finish();
  };
  return { url: undefined, closed, close, [Symbol.asyncDispose]: close };
}

async function serveHttp(server: McpServer, port: number, host: string): Promise<RunningMcp> {
  const { StreamableHTTPServerTransport } = await importPeer(
    SDK,
    () => import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  );
  let allowedHosts: string[] = [];
  const http: Server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== "POST") {
      // Stateless: no server-initiated stream (GET) and no session to delete.
      res.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    res.on("close", () => void transport.close());
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, resolve);
  });
  const bound = (http.address() as AddressInfo).port;
  allowedHosts = [`${host}:${bound}`, `localhost:${bound}`, `127.0.0.1:${bound}`];
  const closed = new Promise<void>((resolve) => http.once("close", resolve));
  const close = async () => {
    await server.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  };
  const shown = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shown}:${bound}/mcp`, closed, close, [Symbol.asyncDispose]: close };
}

/** Creates the server and serves it on stdio or Streamable HTTP (`port` 0: an ephemeral port). */
export async function serveMcp(options: McpServerOptions & McpTransportOptions): Promise<RunningMcp> {
  const server = await createMcpServer(options);
  if (options.transport === "stdio") return serveStdio(server);
  return serveHttp(server, options.port ?? 3333, options.host ?? "127.0.0.1");
}
