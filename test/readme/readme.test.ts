/**
 * README.md runs as written: every TypeScript block type-checks (the API tour's blocks as one
 * module, in order, as a reader would paste them), the end-to-end example runs and prints the output
 * shown under it, the SQL shown per dialect is what the compilers produce, and every repository
 * path the README names exists.
 */
import { expect } from "chai";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { README_PATH, markedBlock, readmeBlocks } from "../support/readme-blocks.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { renderFixture } from "../../codegen/fixture/render-fixture.js";
import { captureConsole } from "../support/console-output.js";
import { checkProject } from "../support/typescript-check.js";

const readme = readFileSync(README_PATH, "utf8");

/**
 * Hoists the blocks' `import { ... } from "m"` lines, merging the names per module, above their
 * bodies; default and namespace imports (`import express from "express"`, `import * as views from
 * "m"`) are hoisted as they are.
 */
function asModule(blocks: readonly string[]): string {
  const named = new Map<string, Set<string>>();
  const whole = new Set<string>();
  const bodies = blocks.map((code) =>
    code
      .split("\n")
      .filter((line) => {
        if (/^import (\* as )?\w+ from "[^"]+";( \/\/.*)?$/.test(line)) {
          whole.add(line.replace(/;( \/\/.*)$/, ";"));
          return false;
        }
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
  const imports = [
    ...whole,
    ...[...named].map(([module, names]) => `import { ${[...names].join(", ")} } from "${module}";`),
  ];
  expect(bodies.join("\n")).to.not.match(
    /^import /m,
    "only `import { ... } from` lines are supported in README blocks",
  );
  return `${imports.join("\n")}\n${bodies.join("\n")}\nexport {};\n`;
}

describe("README.md runs as written", function () {
  this.timeout(300_000);
  const dir = join(REPO_ROOT, "test-output", `readme-${process.pid}`);

  // The two README programs run in-process, as modules written beside the type-checked ones, their
  // console output captured (the package test runs the example as a process, from the installed package).
  const runProgram = (file: string, code: string) => {
    writeFileSync(join(dir, file), code);
    return captureConsole(() => import(pathToFileURL(join(dir, file)).href));
  };
  before(() => {
    mkdirSync(dir, { recursive: true });
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

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
      files: ["tour.ts", "example.ts", "fixtures/warehouse.ts", "generated/index.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    // The `--fixture` section imports what that command writes: render a real (empty) one there.
    mkdirSync(join(dir, "fixtures"), { recursive: true });
    const empty = { backend: "backend_c", tables: [], views: [], untranslated: [] };
    writeFileSync(join(dir, "fixtures", "warehouse.ts"), renderFixture(empty));
    // "Serving the model" imports the generated index: the repository's own.
    mkdirSync(join(dir, "generated"), { recursive: true });
    writeFileSync(join(dir, "generated", "index.ts"), 'export * from "../../../generated/index.js";\n');
    const result = checkProject(join(dir, "tsconfig.json"));
    expect(result.output).to.equal("");
    expect(result.code).to.equal(0);
  });

  it("the end-to-end example prints the output shown under it", async () => {
    const result = await runProgram("run-example.ts", markedBlock("readme-example", readme).code);
    expect(result.stderr).to.equal("");
    expect(result.stdout).to.equal(markedBlock("readme-example-output", readme).code);
  });

  it("the SQL shown per dialect, and for a relative date range, is what the compilers produce", async () => {
    const print = (query: string) => `for (const dialect of ["backend_a", "backend_b", "backend_c"] as const) {
  const { sql, parameters } = ${query}.compile({ dialect });
  console.log(\`-- \${dialect}, parameters \${JSON.stringify(parameters)}\\n\${sql}\`);
}`;
    const code = asModule([
      markedBlock("readme-sales", readme).code,
      markedBlock("readme-dialects", readme).code,
      markedBlock("readme-date-ranges", readme).code,
      print("us"),
      'console.log("====");',
      print("lastQuarter"),
      'console.log("====");',
      print("firstQuarter"),
    ]);
    const result = await runProgram("dialects.ts", code);
    expect(result.stderr).to.equal("");
    const [dialects, dateRanges, fixedRange] = result.stdout.split("====\n");
    expect(dialects).to.equal(markedBlock("readme-dialects-sql", readme).code);
    expect(dateRanges).to.equal(markedBlock("readme-date-ranges-sql", readme).code);
    expect(fixedRange).to.equal(markedBlock("readme-date-range-fixed-sql", readme).code);
  });

  it("the Errors table names every error class lib exports, the base class LibError first", async () => {
    const section = readme.slice(
      readme.indexOf("\n### Errors\n"),
      readme.indexOf("\n### ", readme.indexOf("\n### Errors\n") + 1),
    );
    const rows = section.split("\n").filter((line) => line.startsWith("| `"));
    const named = new Set([...section.matchAll(/`(\w+Error)`/g)].map((m) => m[1]!));
    const exported = Object.keys(await import("lib")).filter((name) => name.endsWith("Error"));
    expect(exported).to.include("LibError");
    expect(exported.filter((name) => !named.has(name))).to.deep.equal([]);
    expect(rows[0]).to.match(/^\| `LibError` \|/);
  });

  it("the user-facing READMEs never point readers at the specification they do not have", () => {
    for (const file of ["README.md", "example-service/README.md", "codegen/README.md"]) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      expect(text, file).to.not.match(/\bSPEC\b|\b(SPEC|API)\.md\b/);
    }
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
