/**
 * lib/mcp through the SDK's own client, in-process (InMemoryTransport) and over Streamable HTTP:
 * the tools list with member enums, describe, "revenue by country for Europe" in one call, a typo
 * answered with a suggestion, and answers cut by rows and by the token budget, saying so.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect } from "chai";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { createMcpServer, serveMcp, type McpServer } from "lib/mcp";
import * as views from "../../generated/index.js";
import { seedDemoDatabase } from "../../scripts/seed-demo.js";
import { tempDir, type TempDir } from "../support/temp-dir.js";

type Structured = Record<string, unknown> & { rows?: Record<string, unknown>[] };

async function connectedClient(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("lib/mcp: the MCP server", function () {
  this.timeout(60_000);
  let dir: TempDir;
  let engine: Engine;
  let server: McpServer;
  let client: Client;
  let small: McpServer;
  let smallClient: Client;

  before(async function () {
    dir = await tempDir();
    const database = dir.file("demo.duckdb");
    await seedDemoDatabase(database);
    engine = createEngine(new BackendCConfig({ database, readOnly: true }));
    server = await createMcpServer({ views, engine });
    client = await connectedClient(server);
    small = await createMcpServer({ views, engine, maxRows: 5, maxTokens: 40 });
    smallClient = await connectedClient(small);
  });
  after(async function () {
    await client?.close();
    await smallClient?.close();
    await server?.close();
    await small?.close();
    await engine?.dispose();
    await dir?.[Symbol.asyncDispose]();
  });

  const call = async (c: Client, name: string, args: Record<string, unknown>) => {
    const result = await c.callTool({ name, arguments: args });
    return { result, structured: result.structuredContent as Structured };
  };

  it("lists three read-only tools; query's input schema enumerates the members", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(["list_views", "describe_view", "query"]);
    const query = tools.find((t) => t.name === "query")!;
    const properties = query.inputSchema.properties as Record<string, { enum?: string[]; items?: { enum?: string[] } }>;
    expect(properties["view"]!.enum).to.deep.equal(["sales"]);
    expect(properties["metrics"]!.items!.enum).to.deep.equal(["revenue", "cost"]);
    expect(properties["dimensions"]!.items!.enum).to.deep.equal(["country", "region"]);
    expect(query.annotations?.readOnlyHint).to.equal(true);
  });

  it("list_views and describe_view", async () => {
    const listed = await call(client, "list_views", {});
    expect(listed.structured["views"]).to.deep.equal([{ name: "sales", metrics: 2, dimensions: 2, facts: 0 }]);
    const described = await call(client, "describe_view", { view: "sales" });
    expect(
      (described.structured["members"] as { name: string; kind: string; type: string }[]).map(
        (m) => `${m.name}:${m.kind}:${m.type}`,
      ),
    ).to.deep.equal([
      "country:dimension:string",
      "region:dimension:string",
      "revenue:metric:bigint",
      "cost:metric:bigint",
    ]);
  });

  it('"revenue by country for Europe" is one call, with its compiled SQL', async () => {
    const { result, structured } = await call(client, "query", {
      view: "sales",
      metrics: ["revenue"],
      dimensions: ["country"],
      where: { field: "region", op: "eq", value: "Europe" },
      orderBy: ["-revenue"],
    });
    expect(result.isError).to.not.equal(true);
    expect(structured["truncated"]).to.equal(false);
    const rows = structured.rows!;
    expect(rows.length).to.be.greaterThan(3);
    expect(rows.every((r) => typeof r["country"] === "string" && typeof r["revenue"] === "number")).to.equal(true);
    const revenues = rows.map((r) => r["revenue"] as number);
    expect(revenues).to.deep.equal([...revenues].sort((a, b) => b - a));
    expect(structured["sql"]).to.deep.include({ dialect: "backend_c" });
    expect((structured["sql"] as { text: string }).text).to.include(`"region" = ''Europe''`);
    // The text content is the same answer as exact JSON.
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text).rows).to.deep.equal(rows);
  });

  it("a typo is an error result with a suggestion, never an exception", async () => {
    const { result, structured } = await call(client, "query", {
      view: "sales",
      metrics: ["revnue"],
      dimensions: ["country"],
    });
    expect(result.isError).to.equal(true);
    const error = structured["error"] as { type: string; errors: { field: string; suggestion?: string }[] };
    expect(error.type).to.equal("invalid_request");
    expect(error.errors).to.have.length(1);
    expect(error.errors[0]).to.include({ field: "metrics[0]", suggestion: "revenue" });
    const view = await call(client, "describe_view", { view: "sale" });
    expect((view.structured["error"] as { errors: { suggestion?: string }[] }).errors[0]!.suggestion).to.equal("sales");
  });

  it("a misspelt tool, a misspelt operator and oversized arguments are error results naming what to do", async () => {
    const tool = await call(client, "querry", {});
    expect(tool.result.isError).to.equal(true);
    expect((tool.structured["error"] as { errors: unknown[] }).errors[0]).to.deep.include({
      field: "name",
      suggestion: "query",
      message: 'unknown tool "querry"; did you mean "query"? (tools: list_views, describe_view, query)',
    });
    const op = await call(client, "query", {
      view: "sales",
      metrics: ["revenue"],
      where: { field: "region", op: "equals", value: "Europe" },
    });
    expect((op.structured["error"] as { errors: unknown[] }).errors[0]).to.deep.include({
      field: "where.op",
      suggestion: "eq",
    });
    const big = await call(client, "query", {
      view: "sales",
      metrics: ["revenue"],
      where: { field: "region", op: "eq", value: "x".repeat(70_000) },
    });
    expect((big.structured["error"] as { errors: unknown[] }).errors[0]).to.deep.include({
      field: "arguments",
      code: "too_large",
      limit: { name: "maxBodyBytes", value: 65_536 },
    });
  });

  it("query's description teaches the call: an example with the view's own names, operators, value formats", async () => {
    const { tools } = await client.listTools();
    const description = tools.find((t) => t.name === "query")!.description!;
    const example = /Example, revenue by country for one region: (\{.*?\})\. where:/.exec(description);
    expect(example, description).to.not.equal(null);
    expect(JSON.parse(example![1]!)).to.deep.equal({
      view: "sales",
      metrics: ["revenue"],
      dimensions: ["country"],
      where: { field: "region", op: "eq", value: "<a region>" },
      orderBy: ["-revenue"],
    });
    for (const text of [
      "never on metrics",
      "in, notIn (a list), between ([low, high])",
      'dates as "2024-02-29"',
      "decimals as strings",
      '"-name" descending',
      "Views: sales (metrics: revenue, cost; dimensions: country, region).",
      "at most 100 rows and about 8000 tokens",
      "suggestion",
    ])
      expect(description).to.include(text);
  });

  it("answers are capped by rows and by the token budget, with an explicit flag and the request that continues", async () => {
    const byRows = await call(smallClient, "query", {
      view: "sales",
      metrics: ["revenue"],
      dimensions: ["country"],
      orderBy: ["country"],
    });
    expect(byRows.structured.rows).to.have.length.at.most(5);
    expect(byRows.structured["truncated"]).to.equal(true);
    const truncation = byRows.structured["truncation"] as { reason: string };
    expect(truncation.reason).to.equal("token_budget"); // 40 tokens ≈ 160 characters: fewer than 5 rows fit
    const kept = byRows.structured.rows!.length;
    expect(byRows.structured["next"]).to.deep.include({ offset: kept, view: "sales" });
    const next = await call(smallClient, "query", byRows.structured["next"] as Record<string, unknown>);
    expect(next.structured.rows![0]!["country"]).to.not.equal(byRows.structured.rows![0]!["country"]);

    const limited = await createMcpServer({ views, engine, maxRows: 2, maxTokens: 10_000 });
    const limitedClient = await connectedClient(limited);
    try {
      const byCount = await call(limitedClient, "query", {
        view: "sales",
        metrics: ["revenue"],
        dimensions: ["region"],
      });
      expect(byCount.structured.rows).to.have.length(2);
      expect(byCount.structured["truncation"]).to.deep.include({ reason: "max_rows", maxRows: 2 });
    } finally {
      await limitedClient.close();
      await limited.close();
    }
  });

  it("serves the same tools over Streamable HTTP", async () => {
    await using running = await serveMcp({ views, engine, transport: "http", port: 0 });
    const httpClient = new Client({ name: "test-http", version: "1.0.0" });
    await httpClient.connect(new StreamableHTTPClientTransport(new URL(running.url!)));
    try {
      const { structured } = await call(httpClient, "query", { view: "sales", metrics: ["revenue"] });
      expect(structured.rows).to.have.length(1);
      expect(structured["truncated"]).to.equal(false);
    } finally {
      await httpClient.close();
    }
  });
});
