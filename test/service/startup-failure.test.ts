/**
 * `npm start` that cannot start prints one clear line (no stack trace) and exits non-zero. The service
 * runs as plain JavaScript (test/support/plain-js.ts): what is tested is the process's exit and output;
 * lifespan.test.ts starts it with the README's and npm's own commands.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { plainJs } from "../support/plain-js.js";
import { tempDir } from "../support/temp-dir.js";

const MAIN = "example-service/main.ts";

function startMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [plainJs([MAIN]).path(MAIN)], {
      cwd: REPO_ROOT,
      env: { ...process.env, HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

type Result = Awaited<ReturnType<typeof startMain>>;

describe("example service: startup failures", function () {
  this.timeout(120_000);
  // Both services are started up front and fail side by side; each test reads its own outcome.
  const blocker = createServer();
  let port: number;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let portInUse: Promise<Result>;
  let pathUnderFile: Promise<Result>;
  let file: string;

  before(async () => {
    dir = await tempDir();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as AddressInfo).port;
    portInUse = startMain({ PORT: String(port), BACKEND_C_DATABASE: join(dir.path, "demo.duckdb") });
    file = join(dir.path, "not-a-directory");
    await writeFile(file, "x");
    pathUnderFile = startMain({ PORT: "0", BACKEND_C_DATABASE: join(file, "demo.duckdb") });
  });
  after(async () => {
    await Promise.allSettled([portInUse, pathUnderFile]);
    await new Promise((resolve) => blocker.close(resolve));
    await dir[Symbol.asyncDispose]();
  });

  it("a port in use: one line naming the port, exit 1", async () => {
    const result = await portInUse;
    expect(result.code).to.equal(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines, result.stderr).to.have.length(1);
    expect(lines[0]).to.contain("could not start").and.contain(`port ${port} is already in use`);
    expect(result.stderr).to.not.match(/^\s+at /m);
  });

  it("a database path under a file: one line naming the path, exit 1", async () => {
    const result = await pathUnderFile;
    expect(result.code).to.equal(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines, result.stderr).to.have.length(1);
    expect(lines[0]).to.contain("could not start").and.contain(join(file, "demo.duckdb"));
    expect(result.stderr).to.not.match(/^\s+at /m);
  });
});
