/**
 * scripts/build.ts: `--if-changed` (what prepare and prepack run) skips the build only when dist/
 * carries the stamp of exactly the current sources, configs and TypeScript version; `--no-check`
 * (prepare) emits without the type check.
 */
import { expect } from "chai";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, buildStamp, STAMP_FILE } from "../../scripts/build.js";
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

  it("--if-changed leaves a dist/ stamped with the current sources alone", () => {
    const root = checkout();
    writeFileSync(join(root, "dist", STAMP_FILE), buildStamp(root));
    writeFileSync(join(root, "dist", "kept.js"), "");
    expect(build({ ifChanged: true, root })).to.equal("current");
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
    writeFileSync(join(elsewhere, STAMP_FILE), buildStamp(root));
    expect(build({ ifChanged: true, root, reuse: elsewhere })).to.equal("copied");
    expect(readFileSync(join(root, "dist", "index.js"), "utf8")).to.equal("export const a = 1;\n");
    expect(readFileSync(join(root, "dist", STAMP_FILE), "utf8")).to.equal(buildStamp(root));
    // Another tree's build is never copied: this one compiles (and the stand-in compiler fails).
    writeFileSync(join(root, "runtime", "index.ts"), "export const a = 2;\n");
    expect(() => build({ ifChanged: true, root, reuse: elsewhere })).to.throw(/Command failed: .*typescript\/bin\/tsc/);
    expect(existsSync(join(root, "dist", "index.js"))).to.equal(false);
  });
  it("--no-check (prepare) emits with tsc --noCheck; npm run build and prepack check the types", () => {
    const root = checkout();
    // A stand-in compiler that records its arguments and emits one file.
    rmSync(join(root, "node_modules"));
    mkdirSync(join(root, "node_modules", "typescript", "bin"), { recursive: true });
    writeFileSync(join(root, "node_modules", "typescript", "package.json"), '{ "version": "0.0.0-test" }\n');
    const argsFile = join(root, "tsc-args.json");
    writeFileSync(
      join(root, "node_modules", "typescript", "bin", "tsc"),
      `require("node:fs").writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(process.argv.slice(2)));
       require("node:fs").mkdirSync(${JSON.stringify(join(root, "dist"))}, { recursive: true });\n`,
    );
    const argsOf = (noCheck: boolean | undefined): string[] => {
      expect(build({ ifChanged: false, root, noCheck })).to.equal("built");
      return JSON.parse(readFileSync(argsFile, "utf8")) as string[];
    };
    expect(argsOf(true)).to.deep.equal(["-p", join(root, "tsconfig.build.json"), "--noCheck"]);
    expect(argsOf(undefined)).to.deep.equal(["-p", join(root, "tsconfig.build.json")]);
    expect(argsOf(false)).to.not.include("--noCheck");
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts["prepare"]).to.equal("tsx scripts/build.ts --if-changed --no-check");
    expect(scripts["prepack"]).to.equal("tsx scripts/build.ts --if-changed");
    expect(scripts["build"]).to.equal("tsx scripts/build.ts");
  });
});
