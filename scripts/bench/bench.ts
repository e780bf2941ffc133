/**
 * `npm run bench`: compiles the benchmarks together with the library, then runs the compiled JS with plain
 * `node`, so lib and the raw driver are measured as users run them. Under tsx every function carries
 * esbuild's `__name` wrapper, which cost lib 5–27 µs per query and never exists in a user's build.
 *
 *   npx tsx scripts/bench/bench.ts [--quick] [--only name[,name...]] [--rows N] [--out file.json]
 *   npx tsx scripts/bench/bench.ts --source ...   (runs the TypeScript sources through tsx, no build)
 *
 * The build (`tsconfig.bench.json`, emit only, no type check) goes to test-output/bench-build/: the bench
 * scripts and everything they import (runtime/, example-service/, the stand-ins). A package.json there
 * carries lib's own `exports` map, so `import "lib"` in a compiled bench resolves to the compiled runtime
 * next to it, the same module instances the bench's relative imports load.
 */
import { spawn, execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const OUT = join(REPO, "test-output/bench-build");

interface PackageJson {
  readonly exports: Record<string, string | Record<string, string>>;
}

/** lib's exports map with `./dist/` replaced by the bench build's root, `types` dropped. */
function benchExports(exports: PackageJson["exports"]): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === "string" ? target : target["default"];
    if (file === undefined || !file.startsWith("./dist/")) continue;
    mapped[subpath] = `./${file.slice("./dist/".length)}`;
  }
  return mapped;
}

function buildBench(): string {
  const started = Date.now();
  rmSync(OUT, { recursive: true, force: true });
  const tsc = createRequire(join(REPO, "package.json")).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(REPO, "scripts/bench/tsconfig.bench.json")], {
    cwd: REPO,
    stdio: "inherit",
  });
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as PackageJson;
  const benchPackage = { name: "lib", private: true, type: "module", exports: benchExports(pkg.exports) };
  writeFileSync(join(OUT, "package.json"), `${JSON.stringify(benchPackage, null, 2)}\n`);
  cpSync(join(REPO, "example-service/public"), join(OUT, "example-service/public"), { recursive: true });
  console.log(`Compiled the benchmarks and lib to ${OUT} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return join(OUT, "scripts/bench/bench-main.js");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--source")) {
    process.env["LIB_BENCH_LOADED_FROM"] = "TypeScript sources through tsx (--source)";
    process.argv.splice(process.argv.indexOf("--source"), 1);
    await import("./bench-main.js");
    return;
  }
  const entry = buildBench();
  // Ctrl-C reaches the child through the terminal's process group; it removes its temp database and exits.
  process.on("SIGINT", () => undefined);
  const child = spawn(process.execPath, [entry, ...args], {
    stdio: "inherit",
    env: { ...process.env, LIB_BENCH_REPO: REPO, LIB_BENCH_LOADED_FROM: "compiled JS (test-output/bench-build)" },
  });
  const code = await new Promise<number>((done) =>
    child.on("exit", (status, signal) => done(status ?? (signal ? 1 : 0))),
  );
  process.exit(code);
}

await main();
