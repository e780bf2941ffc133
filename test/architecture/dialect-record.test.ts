/**
 * The DIALECTS record (runtime/dialects/dialects.ts) is the only list of backends. Adding a
 * warehouse is one folder `runtime/dialects/<warehouse>/` (with `<warehouse>-dialect.ts`) and one
 * line in the record; everything else that differs per backend asks the record. So outside
 * `runtime/dialects/`, source code in runtime/, codegen/, example-service/ and scripts/ must not:
 * - branch on a backend name (`type === "backend_c"`, `case "backend_a":`, a literal type),
 * - key a table by backend or warehouse name (`{ backend_a: ... }`, `{ duckdb: ... }`),
 * - list backend names (an array of them, or a message naming two or more).
 * Naming one backend in prose (an example command line, a doc comment) is fine.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import * as lib from "lib";
import * as dialectsEntry from "../../runtime/dialects/index.js";
import { BACKENDS, DIALECTS } from "../../runtime/dialects/dialects.js";
import { backendListings } from "../support/backend-listings.js";
import { sourceFiles } from "./support/source-graph.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCANNED = ["runtime", "codegen", "example-service", "scripts"];
const DIALECTS_DIR = "runtime/dialects/";

/** Files whose per-backend code another change is moving into the dialects (fails once it is gone). */
const PENDING: Readonly<Record<string, string>> = {};

const warehouseFolders = readdirSync(join(ROOT, DIALECTS_DIR), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => readdirSync(join(ROOT, DIALECTS_DIR, name)).includes(`${name}-dialect.ts`));

describe("architecture: the DIALECTS record is the only backend list", () => {
  it("has one entry per dialect folder, keyed by the dialect's own name", () => {
    expect(warehouseFolders).to.have.length.greaterThanOrEqual(3);
    expect(BACKENDS).to.have.length(warehouseFolders.length);
    for (const backend of BACKENDS) expect(DIALECTS[backend].name).to.equal(backend);
  });

  it("each dialect's parts agree with its key: compiler dialect, config class, env prefix", () => {
    for (const backend of BACKENDS) {
      const dialect = DIALECTS[backend];
      expect(dialect.createQueryCompiler().dialect).to.equal(backend);
      const configClass = (lib as Record<string, unknown>)[dialect.config.className];
      expect(configClass, dialect.config.className).to.be.a("function");
      // The class is the dialect's: its own `type` is the dialect's key.
      const construct = () => new (configClass as new (input: object) => object)({ type: "x" });
      expect(construct).to.throw(`${dialect.config.className} is always type "${backend}"`);
      expect(dialect.config.envPrefix).to.equal(`${backend.toUpperCase()}_`);
      expect(dialect.config.fields.map((f) => f.toml)).to.include.members(dialect.config.ownFields.map((f) => f.toml));
    }
  });

  it("lib/dialects exports the record, the compilers, and package.json points at it", () => {
    expect(dialectsEntry.DIALECTS).to.equal(DIALECTS);
    for (const backend of BACKENDS) {
      expect(dialectsEntry.compilerFor(backend)).to.be.instanceOf(dialectsEntry.SemanticQueryCompiler);
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, { types?: string; default?: string }>;
    };
    expect(pkg.exports["./dialects"]).to.deep.equal({
      types: "./dist/runtime/dialects/index.d.ts",
      default: "./dist/runtime/dialects/index.js",
    });
  });

  it("no code outside runtime/dialects/ branches on, keys by or lists backends", () => {
    const findings = new Map<string, string[]>();
    for (const path of sourceFiles(SCANNED).filter((file) => !file.startsWith(DIALECTS_DIR))) {
      const found = backendListings(path, readFileSync(join(ROOT, path), "utf8"), BACKENDS, warehouseFolders);
      if (found.length > 0) findings.set(path, found);
    }
    const unexpected = [...findings].filter(([path]) => PENDING[path] === undefined).flatMap(([, f]) => f);
    expect(unexpected, "ask DIALECTS (runtime/dialects/dialects.ts) instead").to.deep.equal([]);
    const stale = Object.keys(PENDING).filter((path) => !findings.has(path));
    expect(stale, "these files no longer list backends: remove them from PENDING").to.deep.equal([]);
  });

  it("the scan finds each kind of backend listing (it can fail)", () => {
    const code = [
      'if (settings.type === "backend_c") open();',
      'switch (backend) { case "backend_a": break; }',
      'type Letter = "backend_b";',
      "const compilers = { backend_a: 1, duckdb: 2 };",
      'const all = ["backend_a", "backend_b"];',
      'fail("use backend_a or backend_b");',
      'run("lib codegen --backend backend_c");',
    ].join("\n");
    const found = backendListings("sample.ts", code, BACKENDS, warehouseFolders);
    expect(found.map((f) => f.replace(/: .*$/, ""))).to.deep.equal([
      "sample.ts:1",
      "sample.ts:2",
      "sample.ts:3",
      "sample.ts:4",
      "sample.ts:4",
      "sample.ts:5",
      "sample.ts:6",
    ]);
  });
});
