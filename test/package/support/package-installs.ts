/**
 * The package installed the two ways the README shows, into two fresh projects, prepared once per
 * test run and in the background (`startPackageInstalls()`, called when pack.test.ts loads), so
 * the npm work overlaps the rest of the suite instead of adding to it:
 *
 * - a fresh copy of the repository (the files git knows, tracked or new; no dist/, no node_modules)
 *   is committed to a new git repository;
 * - tarball: `npm pack` in that copy (its `prepack`/`prepare` build dist/ — reusing the checkout's
 *   dist/ only when its build stamp says it is the build of exactly these sources), then
 *   `npm install <tarball>`;
 * - git: `npm install git+file://<copy>`, which clones it, installs its dependencies, runs
 *   `prepare` and packs and installs the result. A clone has no dist/: its `prepare` copies the
 *   checkout's (LIB_REUSE_BUILD) when that is the build of exactly these sources, else builds from
 *   scratch — the checkout's own build (`npm ci`'s `prepare`) is the from-scratch build of them.
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
import { buildStamp, REUSE_BUILD_ENV, STAMP_FILE } from "../../../scripts/build.js";
import { REPO_ROOT } from "../../codegen/support/run-cli.js";

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

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
      { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 600_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

export function must(result: Run, what: string): Run {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function installedVersion(name: string): string {
  const path = join(REPO_ROOT, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
}

export interface PackageInstalls {
  readonly tmp: string;
  /** The fresh copy (a git repository with one commit). */
  readonly copy: string;
  readonly tarball: string;
  /** Whether `npm pack` found the checkout's dist/ current and reused it (else it built). */
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
  must(
    await run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", lib, ...packages], dir, env),
    `npm install ${lib}`,
  );
  return dir;
}

/** Whether the checkout's dist/ is the build of exactly the copy's sources (so builds of the copy may reuse it). */
function checkoutBuildFits(copy: string): boolean {
  const stamp = join(REPO_ROOT, "dist", STAMP_FILE);
  return existsSync(stamp) && readFileSync(stamp, "utf8") === buildStamp(copy);
}

async function packAndInstall(
  tmp: string,
  copy: string,
  packReusedBuild: boolean,
): Promise<Pick<PackageInstalls, "tarball" | "packReusedBuild" | "fromTarball">> {
  if (packReusedBuild) cpSync(join(REPO_ROOT, "dist"), join(copy, "dist"), { recursive: true });
  const packs = join(tmp, "packs");
  mkdirSync(packs);
  must(await run(NPM, ["pack", "--pack-destination", packs], copy), "npm pack");
  const [name] = readdirSync(packs).filter((f) => f.endsWith(".tgz"));
  const tarball = join(packs, name!);
  return { tarball, packReusedBuild, fromTarball: await project(tmp, "app-tarball", tarball) };
}

/** Prepares both installs in `tmp` (an empty folder). */
export async function prepareInstalls(tmp: string): Promise<PackageInstalls> {
  const copy = await freshCopy(tmp);
  // What `npm install` in the checkout would give, without installing it again (untracked: the git
  // install clones the committed copy without it). The build stamp reads TypeScript's version from it.
  symlinkSync(realpathSync(join(REPO_ROOT, "node_modules")), join(copy, "node_modules"), "dir");
  const fits = checkoutBuildFits(copy);
  const reuse: Record<string, string> = fits ? { [REUSE_BUILD_ENV]: join(REPO_ROOT, "dist") } : {};
  // The git install clones the committed copy, so the copy's dist/ (below) is not in it either.
  const [fromGit, packed] = await Promise.all([
    project(tmp, "app-git", `git+${pathToFileURL(copy).href}`, reuse),
    packAndInstall(tmp, copy, fits),
  ]);
  return { tmp, copy, ...packed, fromGit };
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
