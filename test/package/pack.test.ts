/**
 * The package as a user gets it, both ways the README's "Install" shows (support/package-installs.ts
 * prepares them in the background from the moment this file loads): a tarball made by `npm pack`
 * of a fresh copy of the repository, and `npm install git+file://` of that copy (npm runs
 * `prepare`, not `prepack`, for a git dependency). Each is installed into a fresh project next to
 * `@duckdb/node-api` only; both type-check and run the README's end-to-end example and the subpath
 * entries and run `npx lib codegen --help`. The tarball's project also gets a clear error for a
 * backend whose driver is not installed and loads no driver, no Arrow, no TypeBox and no Kysely on
 * `import "lib"` (each loads with the first call that needs it); it also prints a cold import's time.
 */
import { expect } from "chai";
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { buildRecordOf, buildStamp, STAMP_FILE } from "../../scripts/build.js";
import { markedBlock } from "../support/readme-blocks.js";
import { checkProject } from "../support/typescript-check.js";
import { must, npm, run, startPackageInstalls, type PackageInstalls } from "./support/package-installs.js";

// Started now, while mocha loads the other files: the npm work overlaps their tests.
const installs = startPackageInstalls();

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
  return [...new Set(names)]
    .filter((n) => /^(@duckdb\\/|apache-arrow$|snowflake-sdk$|@databricks\\/|@date-fns\\/|typebox$|kysely$)/.test(n))
    .sort();
};
const lib = await import("lib");
const atImport = heavy();
const engine = lib.createEngine(new lib.BackendCConfig({ database: ":memory:" }));
const conn = await engine.connect();
await conn.run("CREATE TABLE t AS SELECT 1 AS x");
await conn.release();
await engine.dispose();
const afterConnect = heavy();
class Sales extends lib.SemanticView("sales", { revenue: lib.Metric() }) {}
const sql = Sales.query().metrics(Sales.revenue).toSql({ dialect: "backend_c" });
const afterCompile = heavy();
const schema = lib.DecimalType();
const afterSchema = heavy();
const { Value } = await import("typebox/value");
const { DefaultQueryCompiler } = await import("kysely");
const { DuckDBQueryCompiler } = await import("lib/dialects");
const checks = [
  Value.Check(schema, lib.Decimal.parse("1.5")),
  Value.Check(schema, 1.5),
  new DuckDBQueryCompiler() instanceof DefaultQueryCompiler,
];
console.log(JSON.stringify({ atImport, afterConnect, sql, afterCompile, afterSchema, checks }));
`;
const MISSING_DRIVERS = `import { BackendAConfig, BackendBConfig, Dimension, SemanticView, createEngine } from "lib";
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
// Relative date ranges need the optional @date-fns/tz, loaded when a range is first resolved.
const Orders = SemanticView("orders", { orderedOn: Dimension() });
try {
  Orders.query().dimensions(Orders.orderedOn).where(Orders.orderedOn.inLast(7, "day")).toSql({ dialect: "backend_c" });
  console.log(JSON.stringify({ name: "compiled" }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, message: error.message }));
}
`;

const SUBPATHS = [
  'import { parseDuration, type BackendCSettings } from "lib/config";',
  'import { sendJson, toJsonSchema } from "lib/express";',
  'import { BACKENDS, type Dialect } from "lib/dialects";',
  'import { withFixtureEngine, type FixtureModule } from "lib/testing";',
  "const dialects: readonly Dialect[] = [];",
  'const settings: Pick<BackendCSettings, "database"> = { database: ":memory:" };',
  'const fixture: FixtureModule = { FIXTURE_STATEMENTS: ["CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1), (2)"] };',
  'const rows = await withFixtureEngine(fixture, async (engine) => { await using conn = await engine.connect(); return conn.all("SELECT count(*) AS n FROM t"); });',
  'console.log(JSON.stringify([parseDuration("1m30s"), typeof sendJson, typeof toJsonSchema, settings.database, BACKENDS, dialects.length, String(rows[0]?.["n"])]));',
].join("\n");

/** A consumer's strict settings, without skipLibCheck: the package's declarations are checked too. */
const CONSUMER_TSCONFIG = {
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

/** One type-check (with emit) of the README example and the subpath file per project, shared by its tests. */
const compiled = new Map<string, Promise<void>>();
function compileConsumers(project: string): Promise<void> {
  let done = compiled.get(project);
  if (done === undefined) {
    done = (async () => {
      writeFileSync(join(project, "example.ts"), markedBlock("readme-example").code);
      writeFileSync(join(project, "subpaths.ts"), SUBPATHS);
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG));
      const packageDir = `${realpathSync(join(project, "node_modules", "lib"))}/`;
      const result = checkProject(join(project, "tsconfig.json"), {
        emit: true,
        alsoCheck: (file) => resolve(file).startsWith(packageDir),
      });
      expect(result.output, "type errors").to.equal("");
    })();
    compiled.set(project, done);
  }
  return done;
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** Relative paths and repository paths a file's text names that do not exist beside it in the package. */
export function outsideMentions(text: string, dir: string, packageRoot: string): string[] {
  const mentions = [
    ...text.matchAll(/(?<![\w/.])(\.{1,2}\/[\w./-]*\w\.(?:ts|js|md|json))\b/g),
    ...text.matchAll(
      /(?<![\w/.])((?:runtime|codegen|test|scripts|example-service|shared|generated)\/[\w./-]*\w\.\w+)/g,
    ),
  ].map((m) => m[1]!);
  const exists = (path: string): boolean =>
    [path, path.replace(/\.ts$/, ".d.ts"), path.replace(/\.ts$/, ".js")].some((p) => existsSync(p));
  return mentions.filter((m) => {
    const path = m.startsWith(".") ? resolve(dir, m) : resolve(packageRoot, m);
    return !path.startsWith(packageRoot) || !exists(path);
  });
}

describe("package: installed as a user installs it", function () {
  this.timeout(900_000);
  let prepared: PackageInstalls;

  before(async () => {
    prepared = await installs;
  });
  after(() => {
    if (prepared !== undefined) rmSync(prepared.tmp, { recursive: true, force: true });
  });

  describe("npm pack of a fresh copy", () => {
    it("the tarball holds the build, the LICENSE and the bin, and no sources, tests, example service, source maps or build stamp", async () => {
      const listing = (await tarList(prepared.tarball)).map((f) => `package/${f}`);
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
      // A map would point at .ts sources the package does not ship.
      expect(listing.filter((f) => f.endsWith(".map") || f.endsWith(STAMP_FILE))).to.deep.equal([]);
    });

    it("npm pack ran the build (prepack/prepare): the copy's dist/ is stamped as the type-checked build of its sources", () => {
      expect(buildRecordOf(join(prepared.copy, "dist"))).to.deep.equal({
        sources: buildStamp(prepared.copy),
        typeChecked: true,
      });
    });

    it("package.json names its repository: the git URL of the README's install line", () => {
      const pkg = JSON.parse(
        readFileSync(join(prepared.fromTarball, "node_modules", "lib", "package.json"), "utf8"),
      ) as {
        repository?: { type?: string; url?: string };
      };
      const line = /^npm install (git\+\S+)/m.exec(markedBlock("readme-install").code)?.[1];
      expect(pkg.repository?.type).to.equal("git");
      expect(pkg.repository?.url).to.equal(line);
    });

    it("the shipped declarations name no file outside the package", () => {
      const root = realpathSync(join(prepared.fromTarball, "node_modules", "lib"));
      const outside = filesUnder(root)
        .filter((f) => f.endsWith(".d.ts"))
        .flatMap((f) =>
          outsideMentions(readFileSync(join(root, f), "utf8"), dirname(join(root, f)), root).map((m) => `${f}: ${m}`),
        );
      expect(outside).to.deep.equal([]);
    });

    it("a backend whose driver is not installed fails its first connection naming the package to install", async () => {
      const project = prepared.fromTarball;
      writeFileSync(join(project, "missing.mjs"), MISSING_DRIVERS);
      const result = must(await run(process.execPath, ["missing.mjs"], project), "node missing.mjs");
      const [a, b, c] = result.stdout
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
      expect(c!.name).to.equal("MissingPackageError");
      expect(c!.message).to.contain('needs the npm package "@date-fns/tz"').and.contain("npm install @date-fns/tz");
    });

    it('import "lib" loads no driver, Arrow, TypeBox or Kysely; each loads with the first call that needs it', async () => {
      const project = prepared.fromTarball;
      writeFileSync(join(project, "hooks.mjs"), LOAD_HOOKS);
      writeFileSync(join(project, "lazy.mjs"), LAZY_CHECK);
      const log = join(prepared.tmp, "loads.log");
      writeFileSync(log, "");
      const result = must(await run(process.execPath, ["lazy.mjs"], project, { LOAD_LOG: log }), "node lazy.mjs");
      const report = JSON.parse(result.stdout.trim()) as Record<
        "atImport" | "afterConnect" | "afterCompile",
        string[]
      > & {
        sql: string;
        afterSchema: string[];
        checks: boolean[];
      };
      expect(report.atImport).to.deep.equal([]);
      expect(report.afterConnect).to.include("@duckdb/node-api");
      expect(report.afterConnect).to.not.include.members(["apache-arrow", "kysely", "typebox"]);
      // Kysely loads with the first query compiled, TypeBox with the first schema helper (or into()).
      expect(report.sql).to.contain("semantic_view(");
      expect(report.afterCompile).to.include("kysely").and.not.include("typebox");
      expect(report.afterSchema).to.include("typebox");
      expect(report.checks, "one TypeBox and one Kysely: the application's own").to.deep.equal([true, false, true]);
    });

    it('prints how long a cold `import "lib"` takes (median of 5 processes; a figure, not an assertion)', async () => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const script = 'const t = performance.now(); await import("lib"); console.log(performance.now() - t);';
        const result = must(
          await run(process.execPath, ["--input-type=module", "-e", script], prepared.fromTarball),
          "node -e",
        );
        times.push(Number(result.stdout.trim()));
      }
      times.sort((a, b) => a - b);
      console.log(
        `      import "lib": median ${times[2]!.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")})`,
      );
      expect(times.every((t) => Number.isFinite(t) && t > 0)).to.equal(true);
    });
  });

  describe("npm install git+file:// of the fresh copy (npm runs prepare, not prepack, for git dependencies)", () => {
    it("installs the built package: exactly the files the tarball holds", async () => {
      const installed = filesUnder(join(prepared.fromGit, "node_modules", "lib"));
      expect(installed).to.include("dist/runtime/index.js");
      expect(installed).to.deep.equal((await tarList(prepared.tarball)).sort());
    });
  });

  for (const [way, projectOf] of [
    ["tarball", (p: PackageInstalls) => p.fromTarball],
    ["git+file:// URL", (p: PackageInstalls) => p.fromGit],
  ] as const) {
    describe(`used from the ${way} install`, () => {
      it("installs without express, swagger-ui-express or the Snowflake and Databricks drivers", () => {
        const modules = join(projectOf(prepared), "node_modules");
        for (const name of ["express", "swagger-ui-express", "snowflake-sdk", "@databricks/sql"]) {
          expect(existsSync(join(modules, name)), name).to.equal(false);
        }
        for (const name of ["lib", "@duckdb/node-api", "kysely", "generic-pool"])
          expect(existsSync(join(modules, name)), name).to.equal(true);
      });

      it("type-checks and runs the README's end-to-end example against the installed package", async () => {
        const project = projectOf(prepared);
        await compileConsumers(project);
        const result = must(await run(process.execPath, ["out/example.js"], project), "node out/example.js");
        expect(result.stdout).to.equal(`${markedBlock("readme-example-output").code}`);
      });

      it("the subpath entries lib/express, lib/config, lib/dialects and lib/testing resolve, with types", async () => {
        const project = projectOf(prepared);
        await compileConsumers(project);
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

      it("npx lib codegen --help runs the installed bin and prints the usage", async () => {
        const result = await npm(
          ["exec", "--offline", "--", "lib", "codegen", "--help"],
          projectOf(prepared),
          prepared.tmp,
        );
        expect(result.stdout).to.contain("--backend");
        expect(result.stdout).to.contain("--database");
      });
    });
  }
});

/** The tarball's files, relative to its `package/` folder. */
async function tarList(tarball: string): Promise<string[]> {
  const listing = must(await run("tar", ["-tzf", tarball], dirname(tarball)), "tar").stdout.split("\n");
  return listing.filter((f) => f.startsWith("package/") && !f.endsWith("/")).map((f) => f.slice("package/".length));
}
