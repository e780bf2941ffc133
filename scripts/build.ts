/**
 * Builds `dist/` with `tsc -p tsconfig.build.json` into an emptied directory (so no output of a
 * deleted source survives), then stamps it with a hash of what the build read and whether the build
 * was type-checked.
 *
 *   npx tsx scripts/build.ts               (npm run build: always builds, with the type check)
 *   npx tsx scripts/build.ts --if-changed  (prepack: skips when dist/ holds this build, type-checked)
 *   npx tsx scripts/build.ts --if-changed --no-check  (prepare: skips when dist/ holds this build; else
 *                                          emits without the type check)
 *
 * npm runs `prepare` for a git dependency (twice: once while installing the clone's dependencies,
 * once before packing it), on `npm install`/`npm ci` in the repository, and with `prepack` on `npm
 * pack`/`npm publish`; the stamp turns every run after the first into a no-op instead of a rebuild.
 * The stamp (`dist/.build-stamp`) is not shipped (see "files" in package.json).
 *
 * `--no-check` (what `prepare` runs: on `npm ci`, `npm install` and in a git dependency's clone) emits
 * with `tsc --noCheck`: the same JavaScript and declarations, in about a third of the CPU time, as the
 * type check is what costs (38 s → 14 s of CPU for this tree). Its stamp says `typeChecked: false`, so
 * `prepack` (what ships) does not take it as it is: it type-checks those sources under
 * tsconfig.build.json's own settings (`tsc --noEmit`; the output `--noCheck` emitted is what the checked
 * build emits) and marks the stamp checked, or fails. `npm test` checks the sources' types too, under
 * its own settings (`typecheck:suite`, mocha's types included), and `npm run build` always checks.
 *
 * `LIB_REUSE_BUILD=<a dist/ folder>`: when that folder carries this tree's stamp (a build of exactly
 * these sources, configs and TypeScript), it is copied instead of compiling again. The package test
 * sets it to the checkout's dist/ for the git install, whose clone would otherwise build from scratch
 * what the checkout has just built.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
/** What `tsc -p tsconfig.build.json` reads from the repository (its "include" and configs; package.json below). */
const INPUT_FOLDERS = ["runtime", "codegen"];
const INPUT_FILES = ["tsconfig.json", "tsconfig.build.json"];
/**
 * package.json fields the compiler never reads: editing them (an npm script, the description) leaves
 * the build as it is. Every other field is hashed, including ones not known here: `type` (ESM or
 * CommonJS output), `name`/`exports`/`imports` (how the sources resolve themselves), the dependencies
 * (what gets installed, whose types the declarations may name).
 */
const PACKAGE_FIELDS_NOT_READ = new Set([
  "scripts",
  "description",
  "keywords",
  "license",
  "author",
  "contributors",
  "repository",
  "homepage",
  "bugs",
  "funding",
  "files",
  "bin",
  "engines",
  "version",
  "private",
  "publishConfig",
]);
export const STAMP_FILE = ".build-stamp";
/** The environment variable naming a dist/ folder to copy when it holds this very build. */
export const REUSE_BUILD_ENV = "LIB_REUSE_BUILD";

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** package.json as the build sees it: the fields the compiler may read, in their order. */
function packageInput(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  return JSON.stringify(Object.entries(pkg).filter(([field]) => !PACKAGE_FIELDS_NOT_READ.has(field)));
}

/** A hash of every build input and the compiler's version: equal hashes, equal builds. */
export function buildStamp(root: string = ROOT): string {
  const hash = createHash("sha256");
  const tsc = createRequire(join(root, "package.json"))("typescript/package.json") as { version: string };
  hash.update(`typescript ${tsc.version}\n`);
  const files = [
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(join(root, folder))),
    ...INPUT_FILES.map((file) => join(root, file)),
  ];
  for (const file of files.map((f) => relative(root, f).split("\\").join("/")).sort()) {
    hash
      .update(`${file}\n`)
      .update(readFileSync(join(root, file)))
      .update("\n");
  }
  hash.update(`package.json\n${packageInput(root)}\n`);
  return hash.digest("hex");
}

/** What `dist/.build-stamp` records: the sources' hash (`buildStamp`) and whether the build checked their types. */
export interface BuildRecord {
  readonly sources: string;
  readonly typeChecked: boolean;
}

/** The record of the build in `dist`, or undefined when it has none (or one this script does not read). */
export function buildRecordOf(dist: string): BuildRecord | undefined {
  const path = join(dist, STAMP_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const record = JSON.parse(readFileSync(path, "utf8")) as Partial<BuildRecord>;
    return typeof record.sources === "string" && typeof record.typeChecked === "boolean"
      ? { sources: record.sources, typeChecked: record.typeChecked }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `dist`'s build record. */
export function writeBuildRecord(dist: string, record: BuildRecord): void {
  writeFileSync(join(dist, STAMP_FILE), `${JSON.stringify(record)}\n`);
}

/** Whether `dist` holds the build of `root`'s current sources (type-checked or not). */
export function isBuildOf(dist: string, root: string = ROOT): boolean {
  return buildRecordOf(dist)?.sources === buildStamp(root);
}

function runTsc(root: string, extraArgs: readonly string[]): void {
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const args = [tsc, "-p", join(root, "tsconfig.build.json"), ...extraArgs];
  execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
}

/**
 * Builds unless `ifChanged` and dist/ already carries this stamp, or copies `reuse` (another dist/
 * folder) when it carries this stamp; then, unless `noCheck`, type-checks a build that was emitted
 * without the check. Says what it did ("checked": dist/ was current but unchecked, and now is checked).
 */
export function build(options: {
  ifChanged: boolean;
  /** Emit without the type check (`tsc --noCheck`): the same output for sources that type-check. */
  noCheck?: boolean;
  root?: string;
  reuse?: string | undefined;
}): "built" | "current" | "copied" | "checked" {
  const root = options.root ?? ROOT;
  const dist = join(root, "dist");
  const sources = buildStamp(root);
  const noCheck = options.noCheck === true;
  let outcome: "built" | "current" | "copied";
  if (options.ifChanged && buildRecordOf(dist)?.sources === sources) outcome = "current";
  else {
    rmSync(dist, { recursive: true, force: true });
    if (options.reuse !== undefined && buildRecordOf(options.reuse)?.sources === sources) {
      cpSync(options.reuse, dist, { recursive: true });
      outcome = "copied";
    } else {
      runTsc(root, noCheck ? ["--noCheck"] : []);
      writeBuildRecord(dist, { sources, typeChecked: !noCheck });
      return "built";
    }
  }
  if (noCheck || buildRecordOf(dist)?.typeChecked === true) return outcome;
  // Emitted without the check: check the same sources under the build's settings (what the checked
  // build would have refused), keeping the output.
  runTsc(root, ["--noEmit"]);
  writeBuildRecord(dist, { sources, typeChecked: true });
  return outcome === "current" ? "checked" : outcome;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const outcome = build({
    ifChanged: process.argv.includes("--if-changed"),
    noCheck: process.argv.includes("--no-check"),
    reuse: process.env[REUSE_BUILD_ENV] || undefined,
  });
  const said = {
    built: "lib: built dist/",
    current: "lib: dist/ is current (same sources, same TypeScript)",
    checked:
      "lib: dist/ is current (same sources, same TypeScript); its sources now type-check under tsconfig.build.json",
    copied: `lib: copied dist/ from ${process.env[REUSE_BUILD_ENV]} (a build of the same sources and TypeScript)`,
  };
  console.log(said[outcome]);
}
