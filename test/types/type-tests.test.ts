/**
 * The type-test files of test/types/ (`*-types.ts`): this test is `npm test`'s check of them (its `tsc`
 * leaves them out, tsconfig.check.json; `npm run typecheck` still checks them the plain way). It checks
 * more than `tsc` can: that each `@ts-expect-error` line fails for the reason it names. It removes
 * every directive and checks the files in one in-process program with tsconfig.json's options: each
 * directive's next line must have a diagnostic, containing the text after `->` where the directive
 * gives one (all do in misuse-types.ts), and no other line may have any — so a directive with no error
 * under it, or an error anywhere else, fails here as it fails `tsc`.
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { markedBlock } from "../support/readme-blocks.js";
import { diagnosticsOf } from "../support/type-diagnostics.js";

const DIR = join(REPO_ROOT, "test", "types");
const DIRECTIVE = /\/\/ @ts-expect-error\b(.*)$/;

interface Expectation {
  readonly fileName: string;
  /** 1-based: the line the directive applies to. */
  readonly line: number;
  readonly expected: string | undefined;
  readonly text: string;
}

describe("type tests: every @ts-expect-error fails for the reason it names", function () {
  this.timeout(300_000);

  it("has at least 100 negative cases, each with its own diagnostic, and clean positive lines", async () => {
    const names = (await readdir(DIR)).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts")).sort();
    const expectations: Expectation[] = [];
    const files = await Promise.all(
      names.map(async (name) => {
        const fileName = join(DIR, name);
        const lines = (await readFile(fileName, "utf8")).split("\n");
        lines.forEach((line, i) => {
          const match = DIRECTIVE.exec(line);
          if (match === null) return;
          const arrow = match[1]!.indexOf("->");
          expectations.push({
            fileName,
            line: i + 2,
            expected: arrow < 0 ? undefined : match[1]!.slice(arrow + 2).trim(),
            text: lines[i + 1]!.trim(),
          });
        });
        // The directive becomes a plain comment: the line under it must now fail by itself.
        return { fileName, text: lines.map((l) => l.replace("// @ts-expect-error", "// expected error:")).join("\n") };
      }),
    );
    expect(expectations.length, "negative cases").to.be.at.least(100);
    expect(
      expectations.filter((e) => e.fileName.endsWith("misuse-types.ts") && e.expected === undefined).map((e) => e.text),
      "misuse-types.ts directives without an expected message",
    ).to.deep.equal([]);

    const diagnostics = diagnosticsOf(files);
    const at = (fileName: string, line: number) =>
      diagnostics.filter((d) => d.fileName === fileName && d.line === line).map((d) => d.message);
    const problems: string[] = [];
    for (const e of expectations) {
      const messages = at(e.fileName, e.line);
      const where = `${e.fileName.slice(DIR.length + 1)}:${e.line} ${e.text}`;
      if (messages.length === 0) problems.push(`${where}: compiles`);
      else if (e.expected !== undefined && !messages.some((m) => m.includes(e.expected!))) {
        problems.push(`${where}: expected "${e.expected}", got: ${messages.join(" | ")}`);
      }
    }
    const expectedLines = new Set(expectations.map((e) => `${e.fileName}:${e.line}`));
    for (const d of diagnostics) {
      if (!expectedLines.has(`${d.fileName}:${d.line}`)) {
        problems.push(`${d.fileName.slice(DIR.length + 1)}:${d.line}: unexpected error: ${d.message}`);
      }
    }
    expect(problems.join("\n")).to.equal("");
  });

  it("the README's compile error is what tsc prints for its block", () => {
    const block = markedBlock("readme-compile-error");
    const lines = ['import { Dimension, Metric, SemanticView } from "lib";', ...block.code.split("\n")];
    const directive = lines.findIndex((l) => l.includes("@ts-expect-error"));
    expect(directive).to.be.above(0);
    lines.splice(directive, 1);
    const fileName = join(DIR, `readme-compile-error-${process.pid}.ts`);
    const diagnostics = diagnosticsOf([{ fileName, text: lines.join("\n") }]);
    expect(diagnostics.map((d) => `${d.line}: ${d.message}`)).to.have.length(1);
    const shown = diagnostics.map((d) => `error TS${d.code}: ${d.message}\n`).join("");
    expect(shown).to.equal(markedBlock("readme-compile-error-output").code);
  });
});
