/**
 * README.md runs as written: every TypeScript block type-checks (the API tour's blocks as one
 * module, in order, as a reader would paste them), the end-to-end example runs and prints the output
 * shown under it, the SQL shown per dialect is what the compilers produce, and every repository
 * path the README names exists.
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { README_PATH, markedBlock, readmeBlocks } from "../support/readme-blocks.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { renderFixture } from "../../codegen/fixture/render-fixture.js";

const TSX = import.meta.resolve("tsx");
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const readme = readFileSync(README_PATH, "utf8");

function run(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, timeout: 180_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/** Hoists the blocks' `import { ... } from "m"` lines, merging the names per module, above their bodies. */
function asModule(blocks: readonly string[]): string {
  const named = new Map<string, Set<string>>();
  const bodies = blocks.map((code) =>
    code
      .split("\n")
      .filter((line) => {
        const m = /^import (type )?\{([^}]*)\} from "([^"]+)";$/.exec(line);
        if (m === null) return true;
        const names = named.get(m[3]!) ?? new Set<string>();
        for (const name of m[2]!
          .split(",")
          .map((n) => n.trim())
          .filter((n) => n !== ""))
          names.add(m[1] ? `type ${name}` : name);
        named.set(m[3]!, names);
        return false;
      })
      .join("\n"),
  );
  const imports = [...named].map(([module, names]) => `import { ${[...names].join(", ")} } from "${module}";`);
  expect(bodies.join("\n")).to.not.match(
    /^import /m,
    "only `import { ... } from` lines are supported in README blocks",
  );
  return `${imports.join("\n")}\n${bodies.join("\n")}\nexport {};\n`;
}

describe("README.md runs as written", function () {
  this.timeout(300_000);
  const dir = join(REPO_ROOT, "test-output", `readme-${process.pid}`);

  before(() => mkdirSync(dir, { recursive: true }));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("every TypeScript block type-checks", async () => {
    const blocks = readmeBlocks(readme).filter((b) => b.lang === "ts");
    expect(blocks.length).to.be.at.least(6);
    const example = markedBlock("readme-example", readme);
    const tour = blocks.filter((b) => b.line !== example.line).map((b) => b.code);
    // The tour's free variable: the optional country filter of "Build a query".
    writeFileSync(join(dir, "tour.ts"), `declare const country: string | undefined;\n${asModule(tour)}`);
    writeFileSync(join(dir, "example.ts"), asModule([example.code]));
    const tsconfig = {
      extends: join(REPO_ROOT, "tsconfig.json"),
      compilerOptions: { noEmit: true, noUnusedLocals: false },
      include: [],
      files: ["tour.ts", "example.ts", "fixtures/warehouse.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    // The `--fixture` section imports what that command writes: render a real (empty) one there.
    mkdirSync(join(dir, "fixtures"), { recursive: true });
    const empty = { backend: "backend_c", tables: [], views: [], untranslated: [] };
    writeFileSync(join(dir, "fixtures", "warehouse.ts"), renderFixture(empty));
    const result = await run([TSC, "-p", join(dir, "tsconfig.json")], dir);
    expect(`${result.stdout}${result.stderr}`).to.equal("");
    expect(result.code).to.equal(0);
  });

  it("the end-to-end example prints the output shown under it", async () => {
    writeFileSync(join(dir, "run-example.ts"), markedBlock("readme-example", readme).code);
    const result = await run(["--import", TSX, join(dir, "run-example.ts")], REPO_ROOT);
    expect(result.stderr).to.equal("");
    expect(result.stdout).to.equal(markedBlock("readme-example-output", readme).code);
  });

  it("the SQL shown per dialect is what the compilers produce", async () => {
    const print = `for (const dialect of ["backend_a", "backend_b", "backend_c"] as const) {
  const { sql, parameters } = us.compile({ dialect });
  console.log(\`-- \${dialect}, parameters \${JSON.stringify(parameters)}\\n\${sql}\`);
}`;
    const code = asModule([
      markedBlock("readme-sales", readme).code,
      markedBlock("readme-dialects", readme).code,
      print,
    ]);
    writeFileSync(join(dir, "dialects.ts"), code);
    const result = await run(["--import", TSX, join(dir, "dialects.ts")], REPO_ROOT);
    expect(result.stderr).to.equal("");
    expect(result.stdout).to.equal(markedBlock("readme-dialects-sql", readme).code);
  });

  it("names only files that are in the repository", () => {
    expect(readme).to.not.match(/\b(SPEC|API)\.md\b/);
    const paths = [...readme.matchAll(/`((?:runtime|codegen|test|example-service|scripts|generated)\/[\w./-]*)`/g)].map(
      (m) => m[1]!,
    );
    expect(paths.length).to.be.at.least(5);
    const missing = paths.filter((p) => !existsSync(join(REPO_ROOT, p.replace(/\/$/, ""))));
    expect(missing).to.deep.equal([]);
  });
});
