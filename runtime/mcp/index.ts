/**
 * `lib/mcp`: an MCP server (tools `list_views`, `describe_view`, `query`) over the request core, for
 * agents. Needs the optional peer `@modelcontextprotocol/sdk`, loaded on first use.
 */
export {
  createMcpServer,
  type McpServer,
  type McpServerOptions,
  type McpRequestContext,
  type McpTransport,
} from "./mcp-server.js";
export { serveMcp, type McpTransportOptions, type RunningMcp } from "./serve-mcp.js";
export { McpTools, DEFAULT_MCP_LIMITS, type McpToolLimits, type ToolDefinition, type ToolResult } from "./mcp-tools.js";
