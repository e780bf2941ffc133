/**
 * scripts/build.ts: `--if-changed` (what prepare and prepack run) skips the build only when dist/
 * carries the stamp of exactly the current sources, configs and TypeScript version; `--no-check`
 * (prepare) emits without the type check and records so, and prepack type-checks such a build before
 * it ships; package.json counts only with the fields the compiler may read.
 */
import { expect } from "chai";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, buildRecordOf, buildStamp, isBuildOf, STAMP_FILE, writeBuildRecord } from "../../scripts/build.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { useTempDir } from "../support/temp-dir.js";

describe("package: the build stamp of scripts/build.ts", () => {
  const tmp = useTempDir();

  function checkout(): string {
    const root = tmp.path;
    for (const folder of ["runtime", "codegen", "dist"]) mkdirSync(join(root, folder));
    writeFileSync(join(root, "runtime", "index.ts"), "export const a = 1;\n");
    writeFileSync(join(root, "codegen", "bin.ts"), "export {};\n");
    for (const file of ["tsconfig.json", "tsconfig.build.json", "package.json"])
      writeFileSync(join(root, file), "{}\n");
    symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
    return root;
  }

  it("changes with any source or config, and only then", () => {
    const root = checkout();
    const first = buildStamp(root);
    expect(buildStamp(root)).to.equal(first);
    writeFileSync(join(root, "runtime", "index.ts"), "export const a = 2;\n");
    const edited = buildStamp(root);
    expect(edited).to.not.equal(first);
    mkdirSync(join(root, "runtime", "deeper"));
    writeFileSync(join(root, "runtime", "deeper", "new.ts"), "export {};\n");
    const added = buildStamp(root);
    expect(added).to.not.equal(edited);
    writeFileSync(join(root, "tsconfig.build.json"), '{ "compilerOptions": {} }\n');
    expect(buildStamp(root)).to.not.equal(added);
  });

  it("counts package.json's fields the compiler may read (type, exports, dependencies, unknown ones), not its scripts or metadata", () => {
    const root = checkout();
    const withPackage = (pkg: Record<string, unknown>): string => {
      writeFileSync(join(root, "package.json"), JSON.stringify(pkg));
      return buildStamp(root);
    };
    const base = { name: "lib", type: "module", exports: { ".": "./dist/index.js" }, dependencies: { a: "^1.0.0" } };
    const first = withPackage(base);
    const scripts = { build: "tsx scripts/build.ts", test: "mocha" };
    const metadata = {
      description: "d",
      keywords: ["k"],
      version: "9.9.9",
      files: ["dist"],
      engines: { node: ">=22" },
    };
    expect(withPackage({ ...base, scripts }), "an npm script").to.equal(first);
    expect(withPackage({ ...base, scripts: { ...scripts, test: "mocha --bail" }, ...metadata })).to.equal(first);
    const changes: Record<string, unknown>[] = [
      { ...base, type: "commonjs" },
      { ...base, exports: { ".": "./dist/main.js" } },
      { ...base, imports: { "#x": "./runtime/x.js" } },
      { ...base, dependencies: { a: "^2.0.0" } },
      { ...base, name: "other" },
      { ...base, typesVersions: { "*": {} } },
      { ...base, someFutureField: true },
    ];
    const stamps = changes.map(withPackage);
    expect(new Set([first, ...stamps]).size, "each of them changes the stamp").to.equal(changes.length + 1);
  });

  it("--if-changed leaves a dist/ stamped with the current sources alone", () => {
    const root = checkout();
    writeBuildRecord(join(root, "dist"), { sources: buildStamp(root), typeChecked: true });
    writeFileSync(join(root, "dist", "kept.js"), "");
    expect(build({ ifChanged: true, root })).to.equal("current");
    expect(build({ ifChanged: true, noCheck: true, root })).to.equal("current");
    expect(isBuildOf(join(root, "dist"), root)).to.equal(true);
    // A stamp of the format before the type check was recorded (the bare hash) is no build of these sources.
    writeFileSync(join(root, "dist", STAMP_FILE), buildStamp(root));
    expect(isBuildOf(join(root, "dist"), root)).to.equal(false);
  });

  it("copies another dist/ (LIB_REUSE_BUILD) only when it carries this tree's stamp", () => {
    const root = checkout();
    // A stand-in compiler that fails at once: a build that compiles instead of copying is seen without compiling.
    rmSync(join(root, "node_modules"));
    mkdirSync(join(root, "node_modules", "typescript", "bin"), { recursive: true });
    writeFileSync(join(root, "node_modules", "typescript", "package.json"), '{ "version": "0.0.0-test" }\n');
    writeFileSync(join(root, "node_modules", "typescript", "bin", "tsc"), "process.exit(3);\n");
    const elsewhere = join(tmp.path, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "index.js"), "export const a = 1;\n");
    writeBuildRecord(elsewhere, { sources: buildStamp(root), typeChecked: true });
    expect(build({ ifChanged: true, root, reuse: elsewhere })).to.equal("copied");
    expect(readFileSync(join(root, "dist", "index.js"), "utf8")).to.equal("export const a = 1;\n");
    expect(buildRecordOf(join(root, "dist"))).to.deep.equal({ sources: buildStamp(root), typeChecked: true });
    // Another tree's build is never copied: this one compiles (and the stand-in compiler fails).
    writeFileSync(join(root, "runtime", "index.ts"), "export const a = 2;\n");
    expect(() => build({ ifChanged: true, root, reuse: elsewhere })).to.throw(/Command failed: .*typescript\/bin\/tsc/);
    expect(existsSync(join(root, "dist", "index.js"))).to.equal(false);
  });
  /** A stand-in compiler that records each run's arguments, emits one file, and fails when `fail` exists. */
  function recordingCompiler(root: string): { runs: () => string[][]; fail: (failing: boolean) => void } {
    rmSync(join(root, "node_modules"));
    mkdirSync(join(root, "node_modules", "typescript", "bin"), { recursive: true });
    writeFileSync(join(root, "node_modules", "typescript", "package.json"), '{ "version": "0.0.0-test" }\n');
    const runsFile = join(root, "tsc-runs.json");
    const failFile = join(root, "fail");
    writeFileSync(runsFile, "[]");
    writeFileSync(
      join(root, "node_modules", "typescript", "bin", "tsc"),
      `const fs = require("node:fs");
       const runs = JSON.parse(fs.readFileSync(${JSON.stringify(runsFile)}, "utf8"));
       fs.writeFileSync(${JSON.stringify(runsFile)}, JSON.stringify([...runs, process.argv.slice(2)]));
       if (fs.existsSync(${JSON.stringify(failFile)})) process.exit(2);
       if (!process.argv.includes("--noEmit")) {
         fs.mkdirSync(${JSON.stringify(join(root, "dist"))}, { recursive: true });
         fs.writeFileSync(${JSON.stringify(join(root, "dist", "index.js"))}, "");
       }\n`,
    );
    return {
      runs: () => JSON.parse(readFileSync(runsFile, "utf8")) as string[][],
      fail: (failing) => (failing ? writeFileSync(failFile, "") : rmSync(failFile, { force: true })),
    };
  }

  it("--no-check (prepare) emits with tsc --noCheck; npm run build and prepack check the types", () => {
    const root = checkout();
    const tsc = recordingCompiler(root);
    const project = ["-p", join(root, "tsconfig.build.json")];
    const dist = join(root, "dist");
    expect(build({ ifChanged: false, root, noCheck: true })).to.equal("built");
    expect(buildRecordOf(dist)).to.deep.equal({ sources: buildStamp(root), typeChecked: false });
    expect(build({ ifChanged: false, root })).to.equal("built");
    expect(buildRecordOf(dist)).to.deep.equal({ sources: buildStamp(root), typeChecked: true });
    expect(build({ ifChanged: false, root, noCheck: false })).to.equal("built");
    expect(tsc.runs()).to.deep.equal([[...project, "--noCheck"], project, project]);
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts["prepare"]).to.equal("tsx scripts/build.ts --if-changed --no-check");
    expect(scripts["prepack"]).to.equal("tsx scripts/build.ts --if-changed");
    expect(scripts["build"]).to.equal("tsx scripts/build.ts");
  });

  it("prepack type-checks a build prepare emitted without the check (keeping its output), once; prepare does not", () => {
    const root = checkout();
    const tsc = recordingCompiler(root);
    const project = ["-p", join(root, "tsconfig.build.json")];
    const dist = join(root, "dist");
    expect(build({ ifChanged: true, noCheck: true, root })).to.equal("built");
    expect(build({ ifChanged: true, noCheck: true, root }), "prepare again").to.equal("current");
    expect(tsc.runs()).to.deep.equal([[...project, "--noCheck"]]);

    // A failing check fails prepack and leaves the build recorded as unchecked.
    tsc.fail(true);
    expect(() => build({ ifChanged: true, root })).to.throw(/Command failed: .*typescript\/bin\/tsc/);
    expect(buildRecordOf(dist)).to.deep.equal({ sources: buildStamp(root), typeChecked: false });
    tsc.fail(false);
    writeFileSync(join(dist, "emitted-by-prepare.js"), "");
    expect(build({ ifChanged: true, root })).to.equal("checked");
    expect(existsSync(join(dist, "emitted-by-prepare.js")), "the output is kept").to.equal(true);
    expect(buildRecordOf(dist)).to.deep.equal({ sources: buildStamp(root), typeChecked: true });
    expect(build({ ifChanged: true, root }), "prepack again").to.equal("current");
    expect(tsc.runs().slice(1)).to.deep.equal([
      [...project, "--noEmit"],
      [...project, "--noEmit"],
    ]);

    // A copied unchecked build (LIB_REUSE_BUILD) is checked too when prepack copies it.
    const elsewhere = join(tmp.path, "elsewhere-unchecked");
    mkdirSync(elsewhere);
    writeFileSync(join(root, "codegen", "bin.ts"), "export const b = 1;\n");
    writeBuildRecord(elsewhere, { sources: buildStamp(root), typeChecked: false });
    expect(build({ ifChanged: true, root, reuse: elsewhere })).to.equal("copied");
    expect(tsc.runs().at(-1)).to.deep.equal([...project, "--noEmit"]);
    expect(buildRecordOf(dist)).to.deep.equal({ sources: buildStamp(root), typeChecked: true });
  });
});
