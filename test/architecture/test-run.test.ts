/**
 * `npm test` (scripts/test.ts) runs the type check and the format check beside the mocha suite, at a
 * lower priority, and fails when any of the three fails. The runner is exercised with small `node -e`
 * programs standing in for tsc, prettier and mocha.
 */
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { pathToFileURL } from "node:url";
import {
  CHECKS,
  MOCHA_ARGS,
  NPM_TEST,
  orderedTestFiles,
  PACKAGE_INSTALLS_ENV,
  runTests,
  SLOW_FIRST,
  TEST_FILES,
  type Command,
} from "../../scripts/test.js";
import { REPO_ROOT } from "./support/source-graph.js";
import { useTempDir } from "../support/temp-dir.js";

const node = (name: string, program: string): Command => ({
  name,
  command: process.execPath,
  args: ["-e", program, "--"],
});

async function runQuietly(plan: Parameters<typeof runTests>[0], extraArgs: string[] = []) {
  let printed = "";
  const code = await runTests(plan, extraArgs, (text) => (printed += text));
  return { code, printed };
}

describe("architecture: npm test runs the checks beside the suite", () => {
  const tmp = useTempDir();

  it("package.json's test script is the runner, whose checks are the typecheck:suite and format:check scripts", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["test"]).to.equal("tsx scripts/test.ts");
    for (const check of CHECKS) expect(pkg.scripts[check.name]).to.equal([check.command, ...check.args].join(" "));
    expect(pkg.scripts["typecheck"], "a developer's whole-project check").to.equal("tsc -p tsconfig.json --noEmit");
    expect(pkg.scripts["coverage"]).to.contain(`mocha "${TEST_FILES}"`);
    expect(MOCHA_ARGS).to.include.members(["--parallel"]);
  });

  it("the suite's type check is tsconfig.json's files but the type-test files, exactly those type-tests.test.ts checks", () => {
    const files = (config: string): string[] => {
      const parsed = ts.getParsedCommandLineOfConfigFile(
        join(REPO_ROOT, config),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
        },
      );
      return parsed!.fileNames.map((file) => relative(REPO_ROOT, file).split("\\").join("/"));
    };
    const [check] = CHECKS;
    expect(check.args).to.deep.equal(["-p", "tsconfig.check.json", "--noEmit"]);
    const project = files("tsconfig.json");
    const suite = new Set(files("tsconfig.check.json"));
    expect(suite.size).to.be.above(500);
    const left = project.filter((file) => !suite.has(file)).sort();
    // type-tests.test.ts checks every .ts file of test/types/ but itself.
    const typeTests = readdirSync(join(REPO_ROOT, "test", "types"))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => `test/types/${name}`)
      .sort();
    expect(left).to.deep.equal(typeTests);
    expect([...suite].every((file) => project.includes(file))).to.equal(true);
  });

  it("hands mocha every file of TEST_FILES once, the slowest first, then the others in path order", async () => {
    // Mocha's own expansion of the glob, as `mocha "test/**/*.test.ts"` (the coverage script) runs it.
    const lookup = pathToFileURL(join(REPO_ROOT, "node_modules", "mocha", "lib", "cli", "lookup-files.js")).href;
    const { lookupFiles } = (await import(lookup)) as { lookupFiles: (glob: string) => string[] };
    const globbed = lookupFiles(TEST_FILES).map((file) => file.split("\\").join("/"));
    const ordered = orderedTestFiles(REPO_ROOT);
    expect([...ordered].sort()).to.deep.equal([...globbed].sort());
    expect(new Set(ordered).size).to.equal(ordered.length);
    expect(
      SLOW_FIRST.filter((file) => !globbed.includes(file)),
      "SLOW_FIRST names only existing test files",
    ).to.deep.equal([]);
    expect(ordered.slice(0, SLOW_FIRST.length)).to.deep.equal([...SLOW_FIRST]);
    const rest = ordered.slice(SLOW_FIRST.length);
    expect(rest).to.deep.equal([...rest].sort());
    expect(NPM_TEST.mocha.args).to.deep.equal([...MOCHA_ARGS, ...ordered]);
  });

  it("starts the checks before the suite ends, at a lower CPU priority, and prints their output after it", async () => {
    const started = join(tmp.path, "started");
    const check = node(
      "slow-check",
      `const os = require("node:os");
       const t = Date.now();
       while (os.getPriority() === 0 && Date.now() - t < 10000);
       require("node:fs").writeFileSync(${JSON.stringify(started)}, "");
       console.log("priority " + os.getPriority());`,
    );
    // The suite ends only once the check has run: the two overlap.
    const suite = node(
      "mocha",
      `const t = Date.now();
       const wait = () => require("node:fs").existsSync(${JSON.stringify(started)}) ? process.exit(0)
         : Date.now() - t > 20000 ? process.exit(9) : setTimeout(wait, 20);
       wait();`,
    );
    const { code, printed } = await runQuietly({ checks: [check], mocha: suite });
    expect(code).to.equal(0);
    expect(printed).to.equal("\n> slow-check: ok\npriority 10\n");
  });

  it("fails with the suite's exit code, else a failing check's, and prints what the check said", async () => {
    const ok = node("fine", "");
    const bad = node("bad", 'console.error("src/x.ts: error"); process.exit(3)');
    expect(await runQuietly({ checks: [ok, bad], mocha: node("mocha", "") })).to.deep.equal({
      code: 3,
      printed: "\n> fine: ok\n\n> bad: FAILED (exit 3)\nsrc/x.ts: error\n",
    });
    expect((await runQuietly({ checks: [bad], mocha: node("mocha", "process.exit(2)") })).code).to.equal(2);
  });

  it("starts the setup first with a fresh folder that mocha learns from the environment, and removes it after", async () => {
    const seen = join(tmp.path, "seen.json");
    const setup = node("setup", `require("node:fs").writeFileSync(process.argv[1] + "/ready", "yes")`);
    const suite = node(
      "mocha",
      `const fs = require("node:fs");
       const folder = process.env.${PACKAGE_INSTALLS_ENV};
       const t = Date.now();
       const wait = () => fs.existsSync(folder + "/ready") ? done() : Date.now() - t > 20000 ? process.exit(9) : setTimeout(wait, 20);
       const done = () => { fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify(folder)); process.exit(0); };
       wait();`,
    );
    expect(await runQuietly({ checks: [], setup, mocha: suite })).to.deep.equal({ code: 0, printed: "" });
    const folder = JSON.parse(readFileSync(seen, "utf8")) as string;
    expect(folder).to.be.a("string").and.not.equal("");
    expect(existsSync(folder), "the setup folder is removed").to.equal(false);
    // With arguments for mocha there is no setup: a test that needs it prepares its own.
    const noSetup = node("mocha", `process.exit(process.env.${PACKAGE_INSTALLS_ENV} === undefined ? 0 : 4)`);
    expect((await runQuietly({ checks: [], setup, mocha: noSetup }, ["--grep", "x"])).code).to.equal(0);
  });

  it("runs `first` (the build) to its end before the rest; when it fails, the run fails and nothing else starts", async () => {
    const built = join(tmp.path, "built");
    const first = node("build", `require("node:fs").writeFileSync(${JSON.stringify(built)}, "")`);
    const suite = node("mocha", `process.exit(require("node:fs").existsSync(${JSON.stringify(built)}) ? 0 : 6)`);
    expect(await runQuietly({ first, checks: [], mocha: suite })).to.deep.equal({ code: 0, printed: "" });
    const started = join(tmp.path, "started");
    const starts = (name: string) => node(name, `require("node:fs").writeFileSync(${JSON.stringify(started)}, "")`);
    const failing = node("build", "process.exit(7)");
    expect(
      await runQuietly({ first: failing, checks: [starts("check")], setup: starts("setup"), mocha: starts("mocha") }),
    ).to.deep.equal({ code: 7, printed: "\n> build: FAILED (exit 7)\n" });
    expect(existsSync(started), "nothing started after the failed build").to.equal(false);
    expect(NPM_TEST.first?.args).to.deep.equal(["--import", "tsx", "scripts/build.ts", "--if-changed", "--no-check"]);
  });

  it("passes its arguments to mocha (npm test -- --grep pool)", async () => {
    const suite = node("mocha", "process.exit(process.argv[1] === '--grep' && process.argv[2] === 'pool' ? 0 : 5)");
    expect((await runQuietly({ checks: [], mocha: suite }, ["--grep", "pool"])).code).to.equal(0);
    expect((await runQuietly({ checks: [], mocha: suite })).code).to.equal(5);
  });
});
