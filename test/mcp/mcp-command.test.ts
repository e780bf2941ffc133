/**
 * `lib mcp`: the command's flags, and a server it starts (in-process, Streamable HTTP on an ephemeral
 * port) answering the SDK's client from a configured connection and the generated views module.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "chai";
import { runCli } from "../../codegen/cli.js";
import { startMcpCommand } from "../../codegen/mcp-command.js";
import { seedDemoDatabase } from "../../scripts/seed-demo.js";
import { tempDir } from "../support/temp-dir.js";

const GENERATED = fileURLToPath(new URL("../../generated/index.ts", import.meta.url));

function io(cwd: string) {
  const lines: string[] = [];
  return {
    lines,
    io: { cwd, env: {}, stdout: (l: string) => void lines.push(l), stderr: (l: string) => void lines.push(l) },
  };
}

describe("lib mcp (the command)", function () {
  this.timeout(60_000);

  it("refuses missing or bad flags with exit status 2", async () => {
    await using dir = await tempDir();
    const out = io(dir.path);
    expect(await runCli(["mcp", "--config", "nowhere.toml"], out.io)).to.equal(2);
    expect(out.lines.at(-1)).to.equal("lib mcp: --views <module> is required (see lib mcp --help)");
    expect(await runCli(["mcp", "--views", GENERATED, "--config", "nowhere.toml"], out.io)).to.equal(2);
    expect(out.lines.at(-1)).to.match(/no configuration file at .*nowhere\.toml/);
    expect(await runCli(["mcp", "--view", GENERATED], out.io)).to.equal(2);
    expect(out.lines.at(-1)).to.include("(did you mean --views?)");
  });

  it("serves a configured connection's views over Streamable HTTP", async () => {
    await using dir = await tempDir();
    const database = dir.file("demo.duckdb");
    await seedDemoDatabase(database);
    await writeFile(
      dir.file("lib.toml"),
      `[connections.analytics]\ntype = "backend_c"\ndatabase = "${database}"\nread_only = true\n`,
    );
    const out = io(dir.path);
    const started = await startMcpCommand(
      { config: "lib.toml", connection: "analytics", views: GENERATED, http: "0" },
      out.io,
    );
    if (typeof started === "number") throw new Error(`exit ${started}: ${out.lines.join("\n")}`);
    const client = new Client({ name: "test", version: "1.0.0" });
    try {
      expect(started.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(out.lines.at(-1)).to.include("on http://127.0.0.1:").and.include('(connection "analytics")');
      await client.connect(new StreamableHTTPClientTransport(new URL(started.url!)));
      const result = await client.callTool({ name: "list_views", arguments: {} });
      expect((result.structuredContent as { views: { name: string }[] }).views.map((v) => v.name)).to.deep.equal([
        "sales",
      ]);
    } finally {
      await client.close();
      await started.close();
    }
  });
});
