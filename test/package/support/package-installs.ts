/**
 * The package installed the two ways the README shows, into two fresh projects, prepared once per
 * test run and in the background (`startPackageInstalls()`, called when pack.test.ts loads), so
 * the npm work overlaps the rest of the suite instead of adding to it:
 *
 * - a fresh copy of the repository (the files git knows, tracked or new; no dist/, no node_modules)
 *   is committed to a new git repository;
 * - the copy's dist/ is made once for both installs: the checkout's dist/ when its build stamp says
 *   it is the build of exactly these sources (the checkout's own `npm ci` ran the from-scratch
 *   build of them), else one build of the copy;
 * - tarball: `npm pack` in that copy (its `prepack` finds dist/ current), then `npm install <tarball>`;
 * - git: `npm install git+file://<copy>`, which clones it, installs its dependencies, runs
 *   `prepare` and packs and installs the result. A clone has no dist/: its `prepare` copies the
 *   copy's (LIB_REUSE_BUILD), which is the build of exactly the clone's sources.
 *
 * Both projects also get `@duckdb/node-api`, `typebox` and `@types/node` at the checkout's versions.
 * npm works from its cache first (`--prefer-offline`); the registry is asked only for what is missing.
 *
 * `npm test` (scripts/test.ts) starts the same work before mocha, as its own process
 * (`prepare-installs.ts`), so it overlaps the whole suite whichever worker runs the package test:
 * it names the folder in LIB_PACKAGE_INSTALLS, and `startPackageInstalls()` then waits for the
 * outcome written there instead of preparing again.
 */
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
import { readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildStamp, isBuildOf, REUSE_BUILD_ENV, writeBuildRecord } from "../../../scripts/build.js";
import { REPO_ROOT } from "../../codegen/support/run-cli.js";

export interface Run {
  readonly code: number;
  /** Stopped by run()'s time limit: npm then exits 1 on its own SIGTERM handler, printing nothing. */
  readonly timedOut?: boolean;
  /** The signal that ended the process (e.g. the timeout's SIGTERM), else null. */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * How long one command may take before it is stopped: only a guard against a hung command. The git
 * install alone (its clone installs every devDependency) took over 10 minutes at load 30 on two cores,
 * so the package test's own hook (15 minutes) is what judges slowness.
 */
const COMMAND_TIMEOUT_MS = 20 * 60_000;

export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, timedOut: error?.killed === true, signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

/** Throws unless `result` exited 0; the error holds its exit code or signal, stdout, stderr and `more` (if any). */
export function must(result: Run, what: string, more = ""): Run {
  if (result.code === 0) return result;
  const ended = result.timedOut
    ? `was stopped after its ${COMMAND_TIMEOUT_MS / 60_000}-minute limit (exit ${result.code})`
    : result.signal === null
      ? `exited ${result.code}`
      : `was killed by ${result.signal}`;
  const output = (name: string, text: string) =>
    `--- ${name}${text.trim() === "" ? " (empty)" : `:\n${text.trimEnd()}`}`;
  throw new Error(
    [`${what} ${ended}`, output("stdout", result.stdout), output("stderr", result.stderr), more]
      .filter(Boolean)
      .join("\n"),
  );
}

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Lines of an npm debug log kept in a failure's message: the end, where npm says why it stopped. */
const NPM_LOG_LINES = 60;

/**
 * Runs npm with its debug log in a folder of its own under `tmp` (not the shared ~/.npm/_logs, which
 * every npm on the machine prunes to its newest ten files) and throws unless it exits 0; the error
 * holds npm's output and the end of its debug log, which says why even when npm printed nothing.
 */
export async function npm(
  args: readonly string[],
  cwd: string,
  tmp: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const logs = mkdtempSync(join(tmp, "npm-logs-"));
  const result = await run(NPM, args, cwd, { ...env, npm_config_logs_dir: logs });
  const what = `npm ${args.filter((a) => !a.startsWith("--")).join(" ")}`;
  return must(result, what, result.code === 0 ? "" : npmLogTail(logs));
}

function npmLogTail(logs: string): string {
  const files = readdirSync(logs)
    .filter((f) => f.endsWith(".log"))
    .sort();
  if (files.length === 0) return `--- npm wrote no debug log in ${logs}`;
  return files
    .map((file) => {
      const lines = readFileSync(join(logs, file), "utf8").trimEnd().split("\n");
      return `--- npm debug log ${file} (last ${Math.min(lines.length, NPM_LOG_LINES)} of ${lines.length} lines):\n${lines.slice(-NPM_LOG_LINES).join("\n")}`;
    })
    .join("\n");
}

function installedVersion(name: string): string {
  const path = join(REPO_ROOT, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
}

export interface PackageInstalls {
  readonly tmp: string;
  /** The fresh copy (a git repository with one commit). */
  readonly copy: string;
  readonly tarball: string;
  /** Whether the checkout's dist/ was the build of the copy's sources and reused (else it was built once for both installs). */
  readonly packReusedBuild: boolean;
  /** A project with `lib` installed from the tarball. */
  readonly fromTarball: string;
  /** A project with `lib` installed from `git+file://<copy>`. */
  readonly fromGit: string;
}

async function freshCopy(tmp: string): Promise<string> {
  const copy = join(tmp, "lib");
  const listed = must(
    await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO_ROOT),
    "git ls-files",
  );
  for (const file of listed.stdout.split("\0")) {
    if (file === "" || !existsSync(join(REPO_ROOT, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(copy, file));
  }
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=lib tests", "-c", "user.email=tests@lib", ...args], copy);
  must(await git("init", "--quiet"), "git init");
  must(await git("add", "--all"), "git add");
  must(await git("commit", "--quiet", "--no-verify", "-m", "fresh copy"), "git commit");
  return copy;
}

async function project(tmp: string, name: string, lib: string, env: Record<string, string> = {}): Promise<string> {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  const packages = ["@duckdb/node-api", "typebox", "@types/node"].map((p) => `${p}@${installedVersion(p)}`);
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", lib, ...packages], dir, tmp, env);
  return dir;
}

/** Whether the checkout's dist/ is the build of exactly the copy's sources (so builds of the copy may reuse it). */
function checkoutBuildFits(copy: string): boolean {
  return isBuildOf(join(REPO_ROOT, "dist"), copy);
}

/**
 * Makes the copy's dist/ the build of its sources, once for both installs: the checkout's dist/ when
 * it is that build (as after `npm ci`), else one build here. Left to themselves, `npm pack`'s prepack
 * and the git clone's prepare would each build from scratch, at the same time (in a checkout whose
 * sources changed since its last build); under load that took the git install past its time limit.
 * Says whether the checkout's build was reused.
 */
async function buildCopyOnce(copy: string, tmp: string): Promise<boolean> {
  const reused = checkoutBuildFits(copy);
  if (reused) {
    cpSync(join(REPO_ROOT, "dist"), join(copy, "dist"), { recursive: true });
    // The checkout's build may be `prepare`'s, emitted without the type check, which `npm pack`'s
    // prepack would now check (~40 s of CPU beside the suite). This run checks the same sources'
    // types already (typecheck:suite), and build-stamp.test.ts tests prepack's check of an unchecked
    // build; so the copy's build is recorded as checked, and prepack finds it current.
    writeBuildRecord(join(copy, "dist"), { sources: buildStamp(copy), typeChecked: true });
  } else must(await run(process.execPath, ["--import", "tsx", "scripts/build.ts"], copy), "the build of the copy");
  return reused;
}

async function packAndInstall(tmp: string, copy: string): Promise<Pick<PackageInstalls, "tarball" | "fromTarball">> {
  const packs = join(tmp, "packs");
  mkdirSync(packs);
  await npm(["pack", "--pack-destination", packs], copy, tmp);
  const [name] = readdirSync(packs).filter((f) => f.endsWith(".tgz"));
  const tarball = join(packs, name!);
  return { tarball, fromTarball: await project(tmp, "app-tarball", tarball) };
}

/** Prepares both installs in `tmp` (an empty folder). */
export async function prepareInstalls(tmp: string): Promise<PackageInstalls> {
  const copy = await freshCopy(tmp);
  // What `npm install` in the checkout would give, without installing it again (untracked: the git
  // install clones the committed copy without it). The build stamp reads TypeScript's version from it.
  symlinkSync(realpathSync(join(REPO_ROOT, "node_modules")), join(copy, "node_modules"), "dir");
  const packReusedBuild = await buildCopyOnce(copy, tmp);
  // The git install clones the committed copy, without dist/: its prepare copies the copy's build.
  const reuse = { [REUSE_BUILD_ENV]: join(copy, "dist") };
  const [fromGit, packed] = await Promise.all([
    project(tmp, "app-git", `git+${pathToFileURL(copy).href}`, reuse),
    packAndInstall(tmp, copy),
  ]);
  return { tmp, copy, packReusedBuild, ...packed, fromGit };
}

/** The environment variable naming a folder where another process prepares the installs. */
export const PREPARED_ELSEWHERE = "LIB_PACKAGE_INSTALLS";
const OUTCOME_FILE = "outcome.json";

type Outcome = { readonly installs: PackageInstalls } | { readonly error: string };

/** Prepares the installs in `tmp` and writes the outcome there for `startPackageInstalls()` in another process. */
export async function prepareAndPublish(tmp: string): Promise<void> {
  let outcome: Outcome;
  try {
    outcome = { installs: await prepareInstalls(tmp) };
  } catch (error) {
    outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // Written whole, then renamed: the reader never sees half a file.
  await writeFile(join(tmp, `${OUTCOME_FILE}.partial`), JSON.stringify(outcome));
  await rename(join(tmp, `${OUTCOME_FILE}.partial`), join(tmp, OUTCOME_FILE));
}

async function preparedElsewhere(tmp: string): Promise<PackageInstalls> {
  const file = join(tmp, OUTCOME_FILE);
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 250));
  const outcome = JSON.parse(await readFile(file, "utf8")) as Outcome;
  if ("error" in outcome) throw new Error(`preparing the package installs failed:\n${outcome.error}`);
  return outcome.installs;
}

async function prepareHere(): Promise<PackageInstalls> {
  const tmp = mkdtempSync(join(tmpdir(), "lib-pack-"));
  process.once("exit", () => rmSync(tmp, { recursive: true, force: true }));
  return prepareInstalls(tmp);
}

let started: Promise<PackageInstalls> | undefined;

/**
 * Starts (once) preparing both installs, or waits for the process `npm test` started to prepare
 * them (LIB_PACKAGE_INSTALLS); the same promise for every caller.
 */
export function startPackageInstalls(): Promise<PackageInstalls> {
  if (started === undefined) {
    const elsewhere = process.env[PREPARED_ELSEWHERE];
    started = elsewhere ? preparedElsewhere(elsewhere) : prepareHere();
    started.catch(() => undefined); // reported by the test that awaits it, not as an unhandled rejection
  }
  return started;
}
