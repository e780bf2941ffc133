/**
 * Builds `dist/` with `tsc -p tsconfig.build.json` into an emptied directory (so no output of a
 * deleted source survives), then stamps it with a hash of what the build read.
 *
 *   npx tsx scripts/build.ts               (npm run build: always builds)
 *   npx tsx scripts/build.ts --if-changed  (prepack: skips when dist/ holds this build)
 *   npx tsx scripts/build.ts --if-changed --no-check  (prepare: the same, emitting without the type check)
 *
 * npm runs `prepare` for a git dependency (twice: once while installing the clone's dependencies,
 * once before packing it), on `npm install`/`npm ci` in the repository, and with `prepack` on `npm
 * pack`/`npm publish`; the stamp turns every run after the first into a no-op instead of a rebuild.
 * The stamp (`dist/.build-stamp`) is not shipped (see "files" in package.json).
 *
 * `--no-check` (what `prepare` runs: on `npm ci`, `npm install` and in a git dependency's clone) emits
 * with `tsc --noCheck`: the same JavaScript and declarations, in about a third of the CPU time, as the
 * type check is what costs (38 s → 14 s of CPU for this tree). The types are checked by `npm test`
 * (its `typecheck:suite` covers runtime/ and codegen/) and by `npm run build`. So a stamp says which
 * sources dist/ was built from, not that they type-check.
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
/** What `tsc -p tsconfig.build.json` reads from the repository (its "include" and configs). */
const INPUT_FOLDERS = ["runtime", "codegen"];
const INPUT_FILES = ["tsconfig.json", "tsconfig.build.json", "package.json"];
export const STAMP_FILE = ".build-stamp";
/** The environment variable naming a dist/ folder to copy when it holds this very build. */
export const REUSE_BUILD_ENV = "LIB_REUSE_BUILD";

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A hash of every build input and the compiler's version: equal stamps, equal builds. */
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
  return hash.digest("hex");
}

/** The stamp of the build in `dist`, or undefined when it has none. */
function stampOf(dist: string): string | undefined {
  const path = join(dist, STAMP_FILE);
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/**
 * Builds unless `ifChanged` and dist/ already carries this stamp, or copies `reuse` (another dist/
 * folder) when it carries this stamp; says which it did.
 */
export function build(options: {
  ifChanged: boolean;
  /** Emit without the type check (`tsc --noCheck`): the same output for sources that type-check. */
  noCheck?: boolean;
  root?: string;
  reuse?: string | undefined;
}): "built" | "current" | "copied" {
  const root = options.root ?? ROOT;
  const dist = join(root, "dist");
  const stamp = buildStamp(root);
  if (options.ifChanged && stampOf(dist) === stamp) return "current";
  rmSync(dist, { recursive: true, force: true });
  if (options.reuse !== undefined && stampOf(options.reuse) === stamp) {
    cpSync(options.reuse, dist, { recursive: true });
    return "copied";
  }
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const args = [tsc, "-p", join(root, "tsconfig.build.json"), ...(options.noCheck === true ? ["--noCheck"] : [])];
  execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  writeFileSync(join(dist, STAMP_FILE), stamp);
  return "built";
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
    copied: `lib: copied dist/ from ${process.env[REUSE_BUILD_ENV]} (a build of the same sources and TypeScript)`,
  };
  console.log(said[outcome]);
}
