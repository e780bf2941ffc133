/**
 * Rules that keep the layering and the file layout as the README describes them: the runtime
 * stands alone, loads without import cycles, no source file grows past 450 lines and every file
 * name is unique in the repository. Each failure names the files to fix.
 */
import { expect } from "chai";
import { findCycle, importsOf, lineCount, listFiles, sourceFiles } from "./support/source-graph.js";

const SOURCE_FOLDERS = ["runtime", "codegen", "example-service", "scripts"] as const;
const MAX_LINES = 450;
/** Names that are conventional in many folders. */
const NAMES_ALLOWED_TWICE = new Set(["index.ts", "README.md"]);

describe("architecture", () => {
  const runtime = sourceFiles(["runtime"]);

  it("finds the sources it checks", () => {
    expect(runtime).to.include("runtime/index.ts");
    for (const folder of SOURCE_FOLDERS) expect(sourceFiles([folder]), folder).not.to.be.empty;
  });

  it("runtime/ never imports codegen/, example-service/, scripts/ or test/", () => {
    const outside = runtime.flatMap((file) =>
      importsOf(file)
        .filter((edge) => /^(codegen|example-service|scripts|test)\//.test(edge.target))
        .map((edge) => `${file} imports ${edge.target}`),
    );
    expect(outside).to.deep.equal([]);
  });

  it("runtime/ has no import cycle among the modules it loads", () => {
    // Type-only imports are erased and import() is lazy: neither can leave a module half-initialised.
    const known = new Set(runtime);
    const loads = (file: string): string[] =>
      importsOf(file)
        .filter((edge) => !edge.typeOnly && !edge.dynamic && known.has(edge.target))
        .map((edge) => edge.target);
    const cycle = findCycle(runtime, loads);
    expect(cycle === undefined ? "no cycle" : cycle.join(" -> ")).to.equal("no cycle");
  });

  it("every relative import in runtime/ resolves to a file (so the rules above see the whole graph)", () => {
    const known = new Set(runtime);
    const dangling = runtime.flatMap((file) =>
      importsOf(file)
        .filter((edge) => edge.target.startsWith("runtime/") && !known.has(edge.target))
        .map((edge) => `${file} imports ${edge.target}`),
    );
    expect(dangling).to.deep.equal([]);
  });

  it(`no source file in ${SOURCE_FOLDERS.join("/, ")}/ is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(SOURCE_FOLDERS)
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).to.deep.equal([]);
  });

  describe("file names", () => {
    const byName = new Map<string, string[]>();
    for (const file of listFiles()) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      if (file.includes("/") && !NAMES_ALLOWED_TWICE.has(name)) byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const duplicated = (name: string): boolean => (byName.get(name) ?? []).length > 1;

    it("are unique across the repository (index.ts and README.md aside)", () => {
      const duplicates = [...byName].filter(([name]) => duplicated(name)).map(([, files]) => files.join(" and "));
      expect(duplicates).to.deep.equal([]);
    });
  });
});

describe("architecture: the checks themselves", () => {
  it("findCycle reports the cycle as a path back to its start", () => {
    const graph: Record<string, string[]> = { a: ["b"], b: ["c"], c: ["a"], d: [] };
    expect(findCycle(Object.keys(graph), (file) => graph[file] ?? [])).to.deep.equal(["a", "b", "c", "a"]);
    expect(findCycle(["d"], (file) => graph[file] ?? [])).to.equal(undefined);
  });

  it("importsOf resolves relative .js specifiers and lib, and marks type-only and dynamic imports", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'import { type C } from "./c.js";',
      'export * from "./d.js";',
      'export type { E } from "./e.js";',
      'import { Engine } from "lib";',
      'import ts from "typescript";',
      'const f = await import("./f.js");',
      'let g: import("./g.js").G;',
    ].join("\n");
    expect(importsOf("runtime/x/y.ts", text)).to.deep.equal([
      { target: "runtime/x/a.ts", typeOnly: false, dynamic: false },
      { target: "runtime/b.ts", typeOnly: true, dynamic: false },
      { target: "runtime/x/c.ts", typeOnly: false, dynamic: false },
      { target: "runtime/x/d.ts", typeOnly: false, dynamic: false },
      { target: "runtime/x/e.ts", typeOnly: true, dynamic: false },
      { target: "runtime/index.ts", typeOnly: false, dynamic: false },
      { target: "typescript", typeOnly: false, dynamic: false },
      { target: "runtime/x/f.ts", typeOnly: false, dynamic: true },
      { target: "runtime/x/g.ts", typeOnly: true, dynamic: false },
    ]);
  });
});
