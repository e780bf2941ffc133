/**
 * The package as a user gets it: a fresh copy of the repository (tracked and new files, no `dist/`)
 * is packed with `npm pack` (which must build through `prepack`), the tarball is installed into a
 * temporary project next to `@duckdb/node-api` only, and that project type-checks and runs the
 * README's end-to-end example, runs `npx lib codegen --help`, gets a clear error for a backend
 * whose driver is not installed, and loads no driver and no Arrow on `import "lib"`.
 * npm works from its cache first (`--prefer-offline`); the registry is only asked for what is missing.
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { markedBlock } from "../support/readme-blocks.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 300_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

function must(result: Run, what: string): Run {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

function installedVersion(name: string): string {
  return (
    JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }
  ).version;
}

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");

/** Checks which heavy packages a script has loaded: ESM resolutions (a hook) plus the CommonJS cache. */
const LOAD_HOOKS = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LOAD_LOG, result.url + "\\n");
  return result;
}
`;
const LAZY_CHECK = `import { createRequire, register } from "node:module";
import { readFileSync } from "node:fs";
register("./hooks.mjs", import.meta.url);
const require = createRequire(import.meta.url);
const heavy = () => {
  const urls = [...readFileSync(process.env.LOAD_LOG, "utf8").split("\\n"), ...Object.keys(require.cache)];
  const names = urls.map((u) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(u)?.[1]).filter(Boolean);
  return [...new Set(names)].filter((n) => /^(@duckdb\\/|apache-arrow$|snowflake-sdk$|@databricks\\/)/.test(n)).sort();
};
const lib = await import("lib");
const atImport = heavy();
const engine = lib.createEngine(new lib.BackendCConfig({ database: ":memory:" }));
const conn = await engine.connect();
await conn.run("CREATE TABLE t AS SELECT 1 AS x");
await conn.release();
await engine.dispose();
const afterConnect = heavy();
console.log(JSON.stringify({ atImport, afterConnect }));
`;
const MISSING_DRIVERS = `import { BackendAConfig, BackendBConfig, createEngine } from "lib";
const configs = [
  new BackendAConfig({ account: "acme", user: "u", password: "p", host: "127.0.0.1", port: 9, protocol: "http" }),
  new BackendBConfig({ host: "127.0.0.1", port: 9, httpPath: "/sql/1.0/warehouses/x", token: "t" }),
];
for (const config of configs) {
  const engine = createEngine(config);
  try {
    await (await engine.connect()).release();
    console.log("connected");
  } catch (error) {
    console.log(JSON.stringify({ name: error.name, message: error.message, cause: error.cause?.name, causeMessage: error.cause?.message }));
  } finally {
    await engine.dispose();
  }
}
`;

describe("package: npm pack of a fresh copy, installed into another project", function () {
  this.timeout(900_000);
  let tmp: string;
  let project: string;
  let tarball: string;

  before(async function () {
    tmp = mkdtempSync(join(tmpdir(), "lib-pack-"));
    const copy = join(tmp, "lib");
    // A fresh checkout: the files git knows (tracked or new, not ignored), so no dist/ and no build output.
    const listed = must(
      await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO_ROOT),
      "git ls-files",
    );
    for (const file of listed.stdout.split("\0")) {
      if (file === "" || !existsSync(join(REPO_ROOT, file))) continue;
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(REPO_ROOT, file), join(copy, file));
    }
    expect(existsSync(join(copy, "dist")), "the copy has no dist/").to.equal(false);
    // What `npm install` in the checkout would give, without installing it again.
    symlinkSync(realpathSync(join(REPO_ROOT, "node_modules")), join(copy, "node_modules"), "dir");
    const packs = join(tmp, "packs");
    mkdirSync(packs);
    must(await run(NPM, ["pack", "--pack-destination", packs], copy), "npm pack");
    const [name] = readdirSync(packs).filter((f) => f.endsWith(".tgz"));
    tarball = join(packs, name!);

    project = join(tmp, "app");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    must(
      await run(
        NPM,
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          tarball,
          `@duckdb/node-api@${installedVersion("@duckdb/node-api")}`,
          `typebox@${installedVersion("typebox")}`,
          `@types/node@${installedVersion("@types/node")}`,
        ],
        project,
      ),
      "npm install <tarball>",
    );
  });

  after(() => {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  });

  it("the tarball holds the build, the LICENSE and the bin, and no sources, tests or example service", async () => {
    const listing = must(await run("tar", ["-tzf", tarball], tmp), "tar").stdout.split("\n");
    expect(listing).to.include.members([
      "package/dist/runtime/index.js",
      "package/dist/runtime/index.d.ts",
      "package/dist/runtime/express/index.js",
      "package/dist/runtime/express/index.d.ts",
      "package/dist/runtime/config/index.js",
      "package/dist/runtime/config/index.d.ts",
      "package/dist/runtime/dialects/index.js",
      "package/dist/runtime/testing/index.js",
      "package/dist/runtime/testing/index.d.ts",
      "package/dist/codegen/bin.js",
      "package/LICENSE",
      "package/README.md",
      "package/package.json",
    ]);
    expect(listing.filter((f) => /^package\/(test|example-service|runtime|codegen|scripts)\//.test(f))).to.deep.equal(
      [],
    );
  });

  it("installs without express, swagger-ui-express or the Snowflake and Databricks drivers", () => {
    const modules = join(project, "node_modules");
    for (const name of ["express", "swagger-ui-express", "snowflake-sdk", "@databricks/sql"]) {
      expect(existsSync(join(modules, name)), name).to.equal(false);
    }
    for (const name of ["lib", "@duckdb/node-api", "kysely", "generic-pool"])
      expect(existsSync(join(modules, name)), name).to.equal(true);
  });

  // One tsc run type-checks both consumer files (each compile of the installed package costs seconds).
  let compiled: Promise<void> | undefined;
  function compileConsumers(): Promise<void> {
    compiled ??= (async () => {
      writeFileSync(join(project, "example.ts"), markedBlock("readme-example").code);
      writeFileSync(
        join(project, "subpaths.ts"),
        [
          'import { parseDuration, type BackendCSettings } from "lib/config";',
          'import { sendJson, toJsonSchema } from "lib/express";',
          'import { BACKENDS, type Dialect } from "lib/dialects";',
          'import { withFixtureEngine, type FixtureModule } from "lib/testing";',
          "const dialects: readonly Dialect[] = [];",
          'const settings: Pick<BackendCSettings, "database"> = { database: ":memory:" };',
          'const fixture: FixtureModule = { FIXTURE_STATEMENTS: ["CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1), (2)"] };',
          'const rows = await withFixtureEngine(fixture, async (engine) => { await using conn = await engine.connect(); return conn.all("SELECT count(*) AS n FROM t"); });',
          'console.log(JSON.stringify([parseDuration("1m30s"), typeof sendJson, typeof toJsonSchema, settings.database, BACKENDS, dialects.length, String(rows[0]?.["n"])]));',
        ].join("\n"),
      );
      const tsconfig = {
        compilerOptions: {
          target: "es2022",
          lib: ["es2023", "esnext.disposable"],
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          verbatimModuleSyntax: true,
          types: ["node"],
          outDir: "out",
        },
        files: ["example.ts", "subpaths.ts"],
      };
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
      must(await run(process.execPath, [TSC, "-p", "tsconfig.json"], project), "tsc");
    })();
    return compiled;
  }

  it("type-checks and runs the README's end-to-end example against the installed package", async () => {
    await compileConsumers();
    const result = must(await run(process.execPath, ["out/example.js"], project), "node out/example.js");
    expect(result.stdout).to.equal(`${markedBlock("readme-example-output").code}`);
  });

  it("the subpath entries lib/express, lib/config, lib/dialects and lib/testing resolve, with types, in the installed package", async () => {
    await compileConsumers();
    const result = must(await run(process.execPath, ["out/subpaths.js"], project), "node out/subpaths.js");
    expect(JSON.parse(result.stdout)).to.deep.equal([
      90_000,
      "function",
      "function",
      ":memory:",
      ["backend_a", "backend_b", "backend_c"],
      0,
      "2",
    ]);
  });

  it("npx lib codegen --help prints the usage", async () => {
    const result = must(
      await run(NPM, ["exec", "--offline", "--", "lib", "codegen", "--help"], project),
      "npx lib codegen --help",
    );
    expect(result.stdout).to.contain("--backend");
    expect(result.stdout).to.contain("--database");
  });

  it("a backend whose driver is not installed fails its first connection naming the package to install", async () => {
    writeFileSync(join(project, "missing.mjs"), MISSING_DRIVERS);
    const result = must(await run(process.execPath, ["missing.mjs"], project), "node missing.mjs");
    const [a, b] = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(a!.name).to.equal("LibConnectionError");
    expect(a!.cause).to.equal("MissingPackageError");
    expect(a!.causeMessage)
      .to.contain('backend_a (Snowflake) needs the npm package "snowflake-sdk"')
      .and.contain("npm install snowflake-sdk");
    expect(b!.cause).to.equal("MissingPackageError");
    expect(b!.causeMessage).to.contain("npm install @databricks/sql");
  });

  it('import "lib" loads no driver and no Arrow; the first DuckDB connection loads DuckDB only', async () => {
    writeFileSync(join(project, "hooks.mjs"), LOAD_HOOKS);
    writeFileSync(join(project, "lazy.mjs"), LAZY_CHECK);
    const log = join(tmp, "loads.log");
    writeFileSync(log, "");
    const result = must(await run(process.execPath, ["lazy.mjs"], project, { LOAD_LOG: log }), "node lazy.mjs");
    const report = JSON.parse(result.stdout.trim()) as { atImport: string[]; afterConnect: string[] };
    expect(report.atImport).to.deep.equal([]);
    expect(report.afterConnect).to.include("@duckdb/node-api");
    expect(report.afterConnect).to.not.include("apache-arrow");
  });
});
