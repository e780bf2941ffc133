/**
 * `npm test`: everything the suite needs, side by side, so a 2-core machine stays busy.
 *
 * - mocha runs the test files in two worker processes (`--parallel --jobs 2`): many files wait on
 *   sockets, child processes and timers, and the other worker uses that time. Mocha hands the files
 *   to the workers in the order given: the slowest (SLOW_FIRST) go first and the rest follow in path
 *   order, so no long file starts last and leaves one worker busy alone at the end;
 * - the type check (`tsc -p tsconfig.check.json --noEmit`, see CHECKS) and the format check
 *   (`prettier --check .`) run beside the suite instead of before it, at a lower CPU priority so the suite keeps its pace; their
 *   output is printed after the suite's;
 * - first of all, dist/ is made the build of the current sources (`scripts/build.ts --if-changed
 *   --no-check`, as `prepare` builds it; a no-op after `npm ci`): the tests that start a child process as plain JavaScript load the built
 *   library (test/support/plain-js.ts), and the package test reuses that build;
 * - the package test's npm work (a pack, a tarball install and a git+file:// install) starts at once
 *   in its own process (test/package/support/prepare-installs.ts) and the package test waits for it
 *   (LIB_PACKAGE_INSTALLS names the folder), instead of starting when its worker reaches that file.
 *
 * The run fails if mocha or a check fails. Arguments go to mocha (`npm test -- --grep pool`); with
 * arguments, the package test prepares its installs itself, only if it runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const bin = (name: string): string => join(ROOT, "node_modules", ".bin", name);

/**
 * The checks, as `npm run typecheck:suite` and `npm run format:check` run them. The type check is
 * `npm run typecheck` without test/types' type-test files (tsconfig.check.json): type-tests.test.ts
 * checks them more strictly (each directive's line fails with the message it names, no other line
 * fails), so checking them here as well cost ~10 s of CPU for nothing.
 */
export const CHECKS = [
  { name: "typecheck:suite", command: "tsc", args: ["-p", "tsconfig.check.json", "--noEmit"] },
  { name: "format:check", command: "prettier", args: ["--check", "."] },
] as const;
export const TEST_FILES = "test/**/*.test.ts";
export const MOCHA_ARGS = ["--parallel", "--jobs", "2"] as const;
/**
 * The files that take longest (seconds of CPU or of waiting on child processes, measured in full runs
 * on two cores), slowest first: started first, they overlap the many short files instead of ending
 * the run alone. Not the package test: it waits for the installs that run beside the suite, which are
 * not done before the middle of the run, so it keeps its place in path order.
 */
export const SLOW_FIRST = [
  "test/types/type-tests.test.ts",
  "test/codegen/fixture-round-trip.test.ts",
  "test/service/lifespan.test.ts",
  "test/acceptance/spec-configuration.test.ts",
  "test/codegen/compile.test.ts",
  "test/codegen/groupable-pairs.test.ts",
  "test/service/startup-failure.test.ts",
  "test/reliability/quiet-warnings.test.ts",
  "test/reliability/cache-memory.test.ts",
  "test/readme/readme-serving.test.ts",
  "test/e2e/dashboard.test.ts",
  "test/e2e/explorer.test.ts",
  "test/acceptance/api-semantic-cli.test.ts",
  "test/reliability/unclosed-cursor.test.ts",
] as const;

/** Every file TEST_FILES matches (relative to `root`), SLOW_FIRST first, the others in path order. */
export function orderedTestFiles(root: string = ROOT): string[] {
  const all = readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
    .map((file) => `test/${file.split("\\").join("/")}`)
    .filter((file) => file.endsWith(".test.ts") && !file.includes("/.")) // as the glob: no dot folders
    .sort();
  const present = new Set(all);
  const first = SLOW_FIRST.filter((file) => present.has(file));
  return [...first, ...all.filter((file) => !first.includes(file as (typeof SLOW_FIRST)[number]))];
}
/** Added to the checks' nice value: the suite, not the checks, gets the CPU when both want it. */
const CHECK_NICENESS = 10;
/** The environment variable of test/package/support/package-installs.ts. */
export const PACKAGE_INSTALLS_ENV = "LIB_PACKAGE_INSTALLS";

export interface Command {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export interface TestPlan {
  /** Run to its end before anything else starts; if it fails, so does the run, and nothing else runs. */
  readonly first?: Command;
  readonly checks: readonly Command[];
  /** Started first, given an empty folder as its last argument, which mocha learns from PACKAGE_INSTALLS_ENV. */
  readonly setup?: Command;
  readonly mocha: Command;
}

interface Outcome extends Command {
  readonly code: number;
  readonly output: string;
}

/** The repository's own `npm test`. */
export const NPM_TEST: TestPlan = {
  first: {
    name: "build",
    command: process.execPath,
    // As `prepare` builds: the type check beside the suite covers the sources.
    args: ["--import", "tsx", "scripts/build.ts", "--if-changed", "--no-check"],
  },
  checks: CHECKS.map((c) => ({ ...c, command: bin(c.command) })),
  setup: {
    name: "package installs",
    command: process.execPath,
    args: ["--import", "tsx", "test/package/support/prepare-installs.ts"],
  },
  mocha: { name: "mocha", command: bin("mocha"), args: [...MOCHA_ARGS, ...orderedTestFiles()] },
};

const children = new Set<ChildProcess>();

/** Signals a background child's whole process group (npm's and tsc's own children too). */
function stop(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal); // no group (mocha) or already gone
  }
}

function exited(child: ChildProcess): Promise<number> {
  children.add(child);
  return new Promise((done) => {
    child.on("error", () => done(1));
    child.on("close", (code, signal) => {
      children.delete(child);
      done(code ?? (signal === null ? 1 : 128));
    });
  });
}

async function background(c: Command, niceness: number, extraArgs: readonly string[] = []): Promise<Outcome> {
  const child = spawn(c.command, [...c.args, ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, stopped as a whole
  });
  if (child.pid !== undefined && niceness !== 0) {
    try {
      setPriority(child.pid, niceness);
    } catch {
      // Not permitted here: it still runs, at normal priority.
    }
  }
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { ...c, code: await exited(child), output };
}

/**
 * Runs `first`, then starts the setup and the checks, runs mocha (its output straight to the terminal) with
 * `extraArgs`, then prints each check's verdict and output. Resolves to the first non-zero exit
 * code: mocha's, then the checks'. The setup runs only when there are no `extraArgs`; a failing
 * setup fails the test that waits for it, not the run by itself.
 */
export async function runTests(
  plan: TestPlan,
  extraArgs: readonly string[] = [],
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  if (plan.first !== undefined) {
    const child = spawn(plan.first.command, plan.first.args, { cwd: ROOT, stdio: "inherit" });
    const code = await exited(child);
    if (code !== 0) {
      write(`\n> ${plan.first.name}: FAILED (exit ${code})\n`);
      return code;
    }
  }
  const folder = plan.setup && extraArgs.length === 0 ? mkdtempSync(join(tmpdir(), "lib-test-setup-")) : undefined;
  try {
    const setup = folder === undefined ? undefined : background(plan.setup!, 0, [folder]);
    const checks = plan.checks.map((c) => background(c, CHECK_NICENESS));
    const env: NodeJS.ProcessEnv = { ...process.env, [PACKAGE_INSTALLS_ENV]: folder };
    if (folder === undefined) delete env[PACKAGE_INSTALLS_ENV]; // not one an outer run set
    const mocha = spawn(plan.mocha.command, [...plan.mocha.args, ...extraArgs], { cwd: ROOT, stdio: "inherit", env });
    const mochaCode = await exited(mocha);
    const outcomes = await Promise.all(checks);
    for (const { name, code, output } of outcomes) {
      write(`\n> ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}\n`);
      if (output.trim() !== "") write(output.endsWith("\n") ? output : `${output}\n`);
    }
    for (const child of children) stop(child, "SIGTERM"); // a setup nobody waited for
    await setup;
    return [mochaCode, ...outcomes.map((o) => o.code)].find((code) => code !== 0) ?? 0;
  } finally {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      for (const child of children) stop(child, signal);
    });
  }
  process.exitCode = await runTests(NPM_TEST, process.argv.slice(2));
}
