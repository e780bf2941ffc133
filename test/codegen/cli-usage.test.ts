/**
 * CLI behaviour that needs no database: help, version, usage errors and the section rules of
 * SPEC.md "Which section is read" (in-process: the binary itself runs in test/acceptance/spec-configuration.test.ts).
 */
import { expect } from "chai";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT, runLib } from "./support/run-cli.js";
import { tempDir } from "../support/temp-dir.js";

const ONLY_DEFAULT = `
[connections.default]
type = "backend_a"
account = "acme-xy12345"
user = "app"
password = "file-password-123"
`;

describe("lib codegen CLI: usage and configuration (exit 0/2/4)", function () {
  this.timeout(60_000);

  it("prints help with the flags and the exit-status table (exit 0)", async () => {
    await using dir = await tempDir();
    const result = await runLib(["codegen", "--help"], { cwd: dir.path });
    expect(result.code).to.equal(0);
    for (const text of [
      "--backend <backend>",
      "--database <path>",
      "--config <path>",
      "--out <dir>",
      "--view <name>",
      "--check",
      "Exit status:",
      "3  semantic view not found",
    ]) {
      expect(result.stdout).to.contain(text);
    }
  });

  it("prints the package version (exit 0)", async () => {
    await using dir = await tempDir();
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    const result = await runLib(["--version"], { cwd: dir.path });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.contain(`lib/${pkg.version}`);
  });

  const usage: [string, string[], RegExp][] = [
    ["an unknown flag", ["codegen", "--backend", "backend_c", "--bogus"], /Unknown option `--bogus`/],
    ["an unknown backend", ["codegen", "--backend", "backend_x"], /unknown backend "backend_x"/],
    ["a missing --backend", ["codegen"], /--backend is required/],
    ["a flag without its value", ["codegen", "--backend"], /value is missing/],
    ["an unknown command", ["generate"], /unknown command "generate"/],
    ["no command", [], /^$/],
  ];
  for (const [what, args, message] of usage) {
    it(`exits 2 on ${what}`, async () => {
      await using dir = await tempDir();
      const result = await runLib(args, { cwd: dir.path });
      expect(result.code, result.stderr).to.equal(2);
      expect(result.stderr).to.match(message);
    });
  }

  it("exits 2 for backend A when the file has only [connections.default], naming the needed section", async () => {
    await using dir = await tempDir({ ".lib.toml": ONLY_DEFAULT });
    const result = await runLib(["codegen", "--backend", "backend_a"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("has no [connections.backend_a] section (it defines [connections.default])");
    expect(result.stderr).to.contain("Add a [connections.backend_a] section");
    expect(result.stderr).not.to.contain("file-password-123");
  });

  it("exits 2 for backend B when the file has only [connections.default]", async () => {
    await using dir = await tempDir({ ".lib.toml": ONLY_DEFAULT });
    const result = await runLib(["codegen", "--backend", "backend_b"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("[connections.backend_b]");
  });

  it("exits 2 for backend A when the configuration file does not exist", async () => {
    await using dir = await tempDir();
    const result = await runLib(["codegen", "--backend", "backend_a"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.match(/reads \[connections\.backend_a\] from .*\.lib\.toml, which does not exist/);
  });

  it("reads --config instead of .lib.toml", async () => {
    await using dir = await tempDir({ "conf.toml": ONLY_DEFAULT });
    const result = await runLib(["codegen", "--backend", "backend_a", "--config", "conf.toml"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("conf.toml has no [connections.backend_a] section");
  });

  it("exits 2 when the matching section is invalid or of another type", async () => {
    await using dir = await tempDir({
      ".lib.toml":
        '[connections.backend_a]\ntype = "backend_a"\npool_size = "many"\n\n[connections.backend_b]\ntype = "backend_a"\n',
    });
    const invalid = await runLib(["codegen", "--backend", "backend_a"], { cwd: dir.path });
    expect(invalid.code).to.equal(2);
    expect(invalid.stderr).to.contain("pool_size");
    const mismatched = await runLib(["codegen", "--backend", "backend_b"], { cwd: dir.path });
    expect(mismatched.code).to.equal(2);
    expect(mismatched.stderr).to.contain(
      'has type = "backend_a", but lib codegen --backend backend_b needs type = "backend_b"',
    );
  });

  it("exits 2 for backend C without --database or BACKEND_C_DATABASE, even with a [connections.default] section", async () => {
    await using dir = await tempDir({
      ".lib.toml": '[connections.default]\ntype = "backend_c"\ndatabase = "app.duckdb"\n',
    });
    const result = await runLib(["codegen", "--backend", "backend_c"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("pass --database <path> or set BACKEND_C_DATABASE");
  });

  it("exits 2 on an invalid [codegen.dtos] table", async () => {
    await using dir = await tempDir({
      ".lib.toml": '[codegen.dtos.RevenueByCountry]\nview = "sales"\nfields = "country"\n',
    });
    const result = await runLib(["codegen", "--backend", "backend_c", "--database", "x.duckdb"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("[codegen.dtos.RevenueByCountry]: fields must be an array of field names");
  });

  it("exits 2 when the backend C database file does not exist (a usage mistake: the path is wrong)", async () => {
    await using dir = await tempDir();
    const result = await runLib(["codegen", "--backend", "backend_c", "--database", "missing.duckdb"], {
      cwd: dir.path,
    });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.match(/the database file .*missing\.duckdb does not exist/);
  });

  describe("where the backend C path comes from (.env and the environment)", () => {
    it("reads BACKEND_C_DATABASE from .env", async () => {
      await using dir = await tempDir({ ".env": "BACKEND_C_DATABASE=from-dotenv.duckdb\n" });
      const result = await runLib(["codegen", "--backend", "backend_c"], { cwd: dir.path });
      expect(result.code).to.equal(2); // the file does not exist: the message names the path it came to
      expect(result.stderr).to.contain("from-dotenv.duckdb");
    });

    it("lets the environment win over .env, and --database win over both", async () => {
      await using dir = await tempDir({ ".env": "BACKEND_C_DATABASE=from-dotenv.duckdb\n" });
      const fromEnv = await runLib(["codegen", "--backend", "backend_c"], {
        cwd: dir.path,
        env: { BACKEND_C_DATABASE: "from-env.duckdb" },
      });
      expect(fromEnv.stderr).to.contain("from-env.duckdb");
      const fromFlag = await runLib(["codegen", "--backend", "backend_c", "--database", "from-flag.duckdb"], {
        cwd: dir.path,
        env: { BACKEND_C_DATABASE: "from-env.duckdb" },
      });
      expect(fromFlag.stderr).to.contain("from-flag.duckdb");
    });
  });
});
