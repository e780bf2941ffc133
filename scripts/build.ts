/**
 * Builds `dist/` with `tsc -p tsconfig.build.json` into an emptied directory (so no output of a
 * deleted source survives), then stamps it with a hash of what the build read.
 *
 *   npx tsx scripts/build.ts               (npm run build: always builds)
 *   npx tsx scripts/build.ts --if-changed  (prepare and prepack: skips when dist/ holds this build)
 *
 * npm runs `prepare` for a git dependency (twice: once while installing the clone's dependencies,
 * once before packing it), on `npm install`/`npm ci` in the repository, and with `prepack` on `npm
 * pack`/`npm publish`; the stamp turns every run after the first into a no-op instead of a rebuild.
 * The stamp (`dist/.build-stamp`) is not shipped (see "files" in package.json).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
/** What `tsc -p tsconfig.build.json` reads from the repository (its "include" and configs). */
const INPUT_FOLDERS = ["runtime", "codegen"];
const INPUT_FILES = ["tsconfig.json", "tsconfig.build.json", "package.json"];
export const STAMP_FILE = ".build-stamp";

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

/** Builds unless `ifChanged` and dist/ already carries this stamp; says which it did. */
export function build(options: { ifChanged: boolean; root?: string }): "built" | "current" {
  const root = options.root ?? ROOT;
  const dist = join(root, "dist");
  const stamp = buildStamp(root);
  const stampPath = join(dist, STAMP_FILE);
  if (options.ifChanged && existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp) return "current";
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
  writeFileSync(stampPath, stamp);
  return "built";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const outcome = build({ ifChanged: process.argv.includes("--if-changed") });
  console.log(outcome === "built" ? "lib: built dist/" : "lib: dist/ is current (same sources, same TypeScript)");
}
