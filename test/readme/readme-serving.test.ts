/**
 * README.md's "Serving the model" section runs as written: every curl command against the example
 * service over the demo database (`npm start`'s data), with the output shown under them; the `lib mcp`
 * lines use only the command's flags; and the client configuration's server, started over stdio as an
 * agent starts it (`npx lib`: the package's bin, dist/codegen/bin.js, with the views compiled to
 * JavaScript as the README's path says), answers the SDK's client.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tableFromIPC } from "apache-arrow";
import { expect } from "chai";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { seedDemoDatabase } from "../../scripts/seed-demo.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { listen, recordingLogger, type RunningApp } from "../service/support/service-harness.js";
import { plainJs } from "../support/plain-js.js";
import { README_PATH, markedBlock } from "../support/readme-blocks.js";
import { tempDir, type TempDir } from "../support/temp-dir.js";

const readme = readFileSync(README_PATH, "utf8");
/** What `npx lib` runs: the package's bin. */
const LIB_BIN = join(
  REPO_ROOT,
  (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { bin: { lib: string } }).bin.lib,
);
const VIEWS = "generated/index.ts";

/** Shell words of one command line: single-quoted strings kept whole, a trailing `# comment` apart. */
function shellWords(line: string): { words: string[]; comment: string } {
  const words: string[] = [];
  let at = 0;
  while (at < line.length) {
    if (line[at] === " ") at++;
    else if (line[at] === "#") return { words, comment: line.slice(at + 1).trim() };
    else if (line[at] === "'") {
      const end = line.indexOf("'", at + 1);
      words.push(line.slice(at + 1, end));
      at = end + 1;
    } else {
      const end = line.indexOf(" ", at);
      words.push(line.slice(at, end < 0 ? undefined : end));
      at = end < 0 ? line.length : end;
    }
  }
  return { words, comment: "" };
}

interface Curl {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly output: string | undefined;
  readonly comment: string;
}

/** The options the README's curl lines use (`-s`, `-H`, `-d`, `-o`) and the URL. */
function parseCurl(line: string): Curl {
  const { words, comment } = shellWords(line);
  expect(words[0]).to.equal("curl");
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let output: string | undefined;
  let url: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-s") continue;
    else if (word === "-H") {
      const [name, value] = words[++i]!.split(/:\s*/, 2);
      headers[name!.toLowerCase()] = value!;
    } else if (word === "-d") body = words[++i];
    else if (word === "-o") output = words[++i];
    else if (word.startsWith("http://localhost:8000/")) url = word;
    else throw new Error(`README curl: option ${word} is not understood by this test`);
  }
  expect(url, line).to.be.a("string");
  return { url: url!, headers, body, output, comment };
}

describe("README.md: serving the model over HTTP and MCP", function () {
  this.timeout(120_000);
  let dir: TempDir;
  let database: string;
  let engine: Engine;
  let app: RunningApp;

  before(async function () {
    dir = await tempDir();
    database = dir.file("demo.duckdb");
    await seedDemoDatabase(database);
    engine = createEngine(new BackendCConfig({ database, readOnly: true }));
    app = await listen(createApp({ engine, logger: recordingLogger() }));
  });
  after(async function () {
    await app?.[Symbol.asyncDispose]();
    await engine?.dispose();
    await dir?.[Symbol.asyncDispose]();
  });

  it("every curl command answers as its media type says, with the output shown", async () => {
    const lines = markedBlock("readme-curl", readme).code.trim().split("\n");
    expect(lines.length).to.be.at.least(6);
    const printed: string[] = [];
    const accepts = new Set<string>();
    for (const line of lines) {
      const curl = parseCurl(line);
      const accept = curl.headers["accept"] ?? "application/json";
      accepts.add(accept);
      const response = await fetch(curl.url.replace("http://localhost:8000", app.url), {
        method: curl.body === undefined ? "GET" : "POST",
        headers: curl.headers,
        ...(curl.body === undefined ? {} : { body: curl.body }),
      });
      const status = /^(\d{3})\b/.exec(curl.comment)?.[1];
      expect(response.status, line).to.equal(status === undefined ? 200 : Number(status));
      const type = response.headers.get("content-type") ?? "";
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (response.status >= 400) expect(type, line).to.match(/^application\/problem\+json/);
      else if (accept === "application/vnd.apache.arrow.stream") {
        expect(type).to.equal(accept);
        const table = tableFromIPC(bytes);
        expect(table.numRows).to.equal(36);
        expect(table.schema.fields.map((f) => f.name)).to.deep.equal(["country", "revenue", "cost"]);
      } else if (accept === "application/x-ndjson") {
        expect(type).to.match(/^application\/x-ndjson/);
        const rows = new TextDecoder().decode(bytes).trim().split("\n");
        expect(rows.map((r) => Object.keys(JSON.parse(r) as object))).to.deep.equal(
          rows.map(() => ["region", "revenue"]),
        );
      } else expect(type, line).to.match(/^application\/json/);
      if (curl.comment.includes("(output below)")) printed.push(new TextDecoder().decode(bytes));
    }
    expect([...accepts].sort()).to.deep.equal([
      "application/json",
      "application/vnd.apache.arrow.stream",
      "application/x-ndjson",
    ]);
    expect(printed.join("\n")).to.equal(markedBlock("readme-curl-output", readme).code.trimEnd());
  });

  it("the lib mcp lines parse as the command's flags", async () => {
    const { runCli } = await import("../../codegen/cli.js");
    const lines = markedBlock("readme-mcp", readme).code.trim().split("\n");
    expect(lines.length).to.equal(2);
    for (const line of lines) {
      const { words } = shellWords(line);
      expect(words.slice(0, 3)).to.deep.equal(["npx", "lib", "mcp"]);
      expect(words).to.include("--views");
      // The flags parse; the command then stops at the first check, the views module (absent here).
      const out: string[] = [];
      const io = { cwd: dir.path, env: {}, stdout: (l: string) => out.push(l), stderr: (l: string) => out.push(l) };
      expect(await runCli(words.slice(2), io)).to.equal(2);
      expect(out.join("\n"), line).to.match(
        /^lib mcp: --views: no module at .*generated\/index\.js \(see lib mcp --help\)$/,
      );
    }
  });

  it("the client configuration's server answers the SDK's client over stdio", async () => {
    const config = JSON.parse(markedBlock("readme-mcp-client", readme).code) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const [server] = Object.values(config.mcpServers);
    expect(server!.command).to.equal("npx");
    expect(server!.args.slice(0, 2)).to.deep.equal(["lib", "mcp"]);
    // The same arguments, with the placeholders pointing at a real configuration and the generated views (as JavaScript).
    writeFileSync(
      dir.file("lib.toml"),
      `[connections.default]\ntype = "backend_c"\ndatabase = "${database}"\nread_only = true\n`,
    );
    const args = server!.args
      .slice(2)
      .map((arg) =>
        arg.endsWith(".lib.toml")
          ? dir.file("lib.toml")
          : arg.endsWith("generated/index.js")
            ? plainJs([VIEWS]).path(VIEWS)
            : arg,
      );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LIB_BIN, "mcp", ...args],
      cwd: dir.path,
      env: { PATH: process.env["PATH"] ?? "", NO_COLOR: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "readme", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(["list_views", "describe_view", "query"]);
      const answer = await client.callTool({
        name: "query",
        arguments: {
          view: "sales",
          metrics: ["revenue"],
          dimensions: ["country"],
          where: { field: "region", op: "eq", value: "Europe" },
          orderBy: ["-revenue"],
          limit: 3,
        },
      });
      expect(answer.isError ?? false).to.equal(false);
      const rows = (answer.structuredContent as { rows: { country: string }[] }).rows;
      expect(rows.map((r) => r.country)).to.have.length(3);
    } finally {
      await client.close();
    }
  });
});
