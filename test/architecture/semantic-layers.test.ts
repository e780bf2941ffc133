/**
 * The built-in semantic engine's imports follow its pipeline: the SQL toolkit reads text, the
 * catalog stores definitions, the DDL parses, validates and executes statements into it, the
 * expander turns a definition and a request into SQL, `call/` rewrites `semantic_view(...)` calls,
 * introspection answers SHOW/DESCRIBE and the table functions, and `builtin-layer.ts` dispatches.
 * Every import (type-only and lazy ones too) must point to the own layer or one the table allows.
 */
import { expect } from "chai";
import { importsOf, sourceFiles } from "./support/source-graph.js";

const ROOT = "runtime/semantic/";

/** The engine's layers in pipeline order, with the layers each one may import. */
const LAYERS = {
  /** The stored model, the driver seam, errors and caches: what every stage shares. */
  model: [],
  sql: ["model"],
  catalog: ["model", "sql"],
  ddl: ["model", "sql", "catalog"],
  /** Works on a definition it is handed: never reads the catalog or the DDL text. */
  expand: ["model", "sql"],
  call: ["model", "sql", "catalog", "expand"],
  introspection: ["model", "sql", "catalog", "ddl", "expand", "call"],
  dispatch: ["model", "sql", "catalog", "ddl", "expand", "call", "introspection"],
} as const satisfies Record<string, readonly string[]>;

type Layer = keyof typeof LAYERS;

const ROOT_FILES: Record<string, Layer> = {
  "semantic-error.ts": "model",
  "semantic-layer.ts": "model",
  "view-definition.ts": "model",
  "lru-cache.ts": "model",
  "definition-cache.ts": "model",
  "rewrite-cache.ts": "model",
  "passthrough-texts.ts": "model",
  "catalog.ts": "catalog",
  "builtin-layer.ts": "dispatch",
};

/** The layer of a file under runtime/semantic/ (undefined: a file the table does not know). */
function semanticLayerOf(file: string): Layer | undefined {
  const rest = file.slice(ROOT.length);
  const slash = rest.indexOf("/");
  if (slash < 0) return ROOT_FILES[rest];
  const folder = rest.slice(0, slash);
  return folder in LAYERS && folder !== "model" && folder !== "dispatch" ? (folder as Layer) : undefined;
}

/** `from imports to` lines for every edge between semantic files that the table forbids. */
function layerViolations(files: readonly string[], edgesOf: (file: string) => readonly string[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = semanticLayerOf(file);
    if (from === undefined) continue;
    const allowed: readonly string[] = LAYERS[from];
    for (const target of edgesOf(file)) {
      if (!target.startsWith(ROOT)) continue;
      const to = semanticLayerOf(target);
      if (to !== undefined && to !== from && !allowed.includes(to)) {
        violations.push(`${file} (${from}) imports ${target} (${to})`);
      }
    }
  }
  return violations;
}

describe("architecture: the semantic engine's import order", () => {
  const files = sourceFiles(["runtime/semantic"]);

  it("knows the layer of every file under runtime/semantic/", () => {
    expect(files.filter((file) => semanticLayerOf(file) === undefined)).to.deep.equal([]);
  });

  it("imports only the layers its pipeline allows (sql ← catalog ← ddl; sql ← expand ← call ← introspection)", () => {
    const edgesOf = (file: string): string[] => importsOf(file).map((edge) => edge.target);
    expect(layerViolations(files, edgesOf)).to.deep.equal([]);
  });

  it("fails on an upward import (the check itself)", () => {
    const graph: Record<string, string[]> = {
      "runtime/semantic/sql/lexer.ts": ["runtime/semantic/semantic-error.ts"],
      "runtime/semantic/ddl/parse-yaml.ts": ["runtime/semantic/expand/expand.ts"],
      "runtime/semantic/expand/expand.ts": ["runtime/semantic/catalog.ts", "runtime/semantic/sql/lexer.ts"],
      "runtime/semantic/catalog.ts": ["runtime/semantic/sql/lexer.ts"],
    };
    expect(layerViolations(Object.keys(graph), (file) => graph[file] ?? [])).to.deep.equal([
      "runtime/semantic/ddl/parse-yaml.ts (ddl) imports runtime/semantic/expand/expand.ts (expand)",
      "runtime/semantic/expand/expand.ts (expand) imports runtime/semantic/catalog.ts (catalog)",
    ]);
  });
});
