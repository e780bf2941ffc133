/**
 * `lib/mcp`: a Model Context Protocol server over the request core, built on the official SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency loaded on first use). It serves the
 * tools of `mcp-tools.ts` on any SDK transport: stdio, Streamable HTTP (`serveMcp`), or an
 * in-memory pair in tests.
 *
 * ```ts
 * import * as views from "./generated/index.js";
 * const server = await createMcpServer({ views, engine });
 * await server.connect(new StdioServerTransport());
 * ```
 */
import { importPeer, type PeerPackage } from "../packages/peer-package.js";
import { SemanticApi, type SemanticApiOptions } from "../request/semantic-api.js";
import { DEFAULT_MCP_LIMITS, McpTools, type McpToolLimits } from "./mcp-tools.js";

const MCP_SDK: PeerPackage = { name: "@modelcontextprotocol/sdk", usedFor: "lib/mcp (the MCP server)" };

/** What the scope hook receives for a tool call: the MCP session and, behind an authenticating transport, its auth info. */
export interface McpRequestContext {
  readonly sessionId?: string | undefined;
  readonly authInfo?: unknown;
}

export interface McpServerOptions extends SemanticApiOptions<McpRequestContext>, Partial<McpToolLimits> {
  /** The server's name in the MCP handshake. Default `"lib"`. */
  readonly name?: string;
  readonly version?: string;
  /** Guidance for the agent, sent at initialization. */
  readonly instructions?: string;
}

/** Any SDK transport (`StdioServerTransport`, `StreamableHTTPServerTransport`, `InMemoryTransport`, ...). */
export type McpTransport = object;

export interface McpServer {
  /** The tools, as MCP lists them (for inspection; the SDK serves them). */
  readonly tools: McpTools<McpRequestContext>;
  /** Serves the tools on `transport` (one SDK server per connection). */
  connect(transport: McpTransport): Promise<void>;
  /** Closes every connection made by `connect`. */
  close(): Promise<void>;
}

async function loadSdk() {
  return importPeer(MCP_SDK, async () => {
    const [server, types] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    return { Server: server.Server, ...types };
  });
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

const DEFAULT_INSTRUCTIONS =
  "Semantic views: call list_views, then describe_view for a view's members, then query with metrics, " +
  "dimensions and a where tree of { field, op, value } (metrics cannot be filtered). One query call answers a question " +
  "such as 'revenue by country for Europe'. Answers say when they were cut (truncated) and give the request that continues (next).";

function sdkServer(sdk: Sdk, tools: McpTools<McpRequestContext>, options: McpServerOptions) {
  const server = new sdk.Server(
    { name: options.name ?? "lib", version: options.version ?? "1.0.0" },
    { capabilities: { tools: {} }, instructions: options.instructions ?? DEFAULT_INSTRUCTIONS },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools: tools.tools.map((t) => ({ ...t })) }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) =>
    tools.call(request.params.name, request.params.arguments, { sessionId: extra.sessionId, authInfo: extra.authInfo }),
  );
  return server;
}

/** The MCP server over `options.views` (loads the SDK; a missing SDK throws `MissingPackageError`). */
export async function createMcpServer(options: McpServerOptions): Promise<McpServer> {
  const sdk = await loadSdk();
  const maxRows = options.maxRows ?? DEFAULT_MCP_LIMITS.maxRows;
  const api = new SemanticApi<McpRequestContext>({ ...options, limits: { maxRows, ...options.limits } });
  const tools = new McpTools(api, {
    maxRows,
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  const open = new Set<{ close(): Promise<void> }>();
  return {
    tools,
    async connect(transport) {
      const server = sdkServer(sdk, tools, options);
      open.add(server);
      server.onclose = () => void open.delete(server);
      await server.connect(transport as Parameters<typeof server.connect>[0]);
    },
    async close() {
      await Promise.all([...open].map((s) => s.close()));
      open.clear();
    },
  };
}
