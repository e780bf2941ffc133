/**
 * The runtime's folders are layers, and every import (type-only and lazy ones too) points down:
 * each folder imports only the folders its row below allows. The table itself is acyclic except
 * for the builder's natural pair, `view` ↔ `query` (a view makes queries; a query reads its view's
 * fields). The entries behind package.json `exports` (`lib`, `lib/config`, ...) and the internal
 * entry `lib codegen` reads (`runtime/internal.ts`) sit on top and may import anything; codegen
 * reaches the runtime through them only. Adding a folder means adding its row; a failure names the
 * file and the import.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { findCycle, importsOf, REPO_ROOT, sourceFiles } from "./support/source-graph.js";

/** Each runtime folder (and the root's `errors.ts`), with the layers it may import, lowest first. */
const LAYERS = {
  errors: [],
  /** "Did you mean" suggestions. */
  text: [],
  values: ["errors"],
  /** Lazy loading of the optional driver packages, and of dependencies on their first use. */
  packages: ["errors"],
  /** The driver contract every warehouse implements, deadlines and cancellation. */
  driver: ["errors"],
  /** The built-in DuckDB semantic-view engine (its inner order: semantic-layers.test.ts). */
  semantic: ["text"],
  mapping: ["errors", "values", "packages", "driver"],
  /** The configuration pipeline: fields, TOML, environment; it knows no dialect. */
  config: ["errors", "text", "driver"],
  "operation-node": ["values"],
  "query-compiler": ["errors", "values", "packages", "operation-node"],
  /** Everything per warehouse, the DIALECTS record and the lookups by backend name. */
  dialects: ["errors", "values", "packages", "driver", "semantic", "config", "operation-node", "query-compiler"],
  observability: ["driver", "dialects"],
  /** The result cache: entries bounded by measured bytes, TTLs, request coalescing, scope attributes. */
  "result-cache": ["errors", "values", "driver"],
  engine: ["errors", "driver", "dialects", "observability", "operation-node", "result-cache"],
  cursor: ["errors", "values", "driver", "mapping", "engine"],
  "query-executor": [
    "errors",
    "packages",
    "driver",
    "operation-node",
    "query-compiler",
    "dialects",
    "observability",
    "result-cache",
    "engine",
    "cursor",
  ],
  query: ["errors", "operation-node", "query-compiler", "dialects", "query-executor", "cursor", "view"],
  view: ["errors", "values", "operation-node", "query"],
  /** The framework-free request core: JSON requests to builder queries, scope, limits, batches. */
  request: [
    "errors",
    "text",
    "values",
    "driver",
    "mapping",
    "operation-node",
    "query-compiler",
    "dialects",
    "query-executor",
    "cursor",
    "query",
    "view",
  ],
  /** `lib/express`: lossless JSON responses (a cache-served cursor's kept JSON text) and the semantic router over the request core. */
  express: ["errors", "values", "mapping", "dialects", "engine", "result-cache", "request"],
  /** `lib/mcp`: the MCP server over the request core (the SDK is an optional peer); `text` for tool-name suggestions. */
  mcp: ["errors", "values", "text", "packages", "dialects", "engine", "query-compiler", "request"],
  /** The `lib/testing` entry's modules: on top like an entry (fixture engines, recorded queries, replay). */
  testing: ["errors", "values", "dialects", "engine", "query", "view"],
} as const satisfies Record<string, readonly string[]>;

type Layer = keyof typeof LAYERS;
type Table = Readonly<Record<string, readonly string[]>>;

/** The one pair of layers allowed to import each other. */
const MUTUAL: readonly [Layer, Layer] = ["view", "query"];
const ENTRIES = "entries";
/** What `lib codegen` reads beyond the public entries: not in package.json `exports`. */
const INTERNAL_ENTRY = "runtime/internal.ts";

/** The runtime files package.json `exports` points at (`./dist/runtime/x/index.js` → `runtime/x/index.ts`). */
function entryFiles(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { default?: string }>;
  };
  const targets = Object.values(manifest.exports).map((target) =>
    typeof target === "string" ? target : (target.default ?? ""),
  );
  return new Set([
    ...targets
      .filter((target) => target.startsWith("./dist/runtime/"))
      .map((target) => target.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")),
    INTERNAL_ENTRY,
  ]);
}

/** The layer of a runtime file: an entry, the root's errors.ts, else its top folder (undefined: not in the table). */
function layerOf(file: string, entries: ReadonlySet<string>): string | undefined {
  if (entries.has(file)) return ENTRIES;
  const rest = file.slice("runtime/".length);
  const name = rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : rest.replace(/\.ts$/, "");
  return Object.hasOwn(LAYERS, name) ? name : undefined;
}

/** `from imports to` lines for every import between runtime files that `table` forbids. */
function layerViolations(
  files: readonly string[],
  edgesOf: (file: string) => readonly string[],
  table: Table,
  entries: ReadonlySet<string>,
): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = layerOf(file, entries);
    if (from === undefined || from === ENTRIES) continue;
    for (const target of edgesOf(file)) {
      if (!target.startsWith("runtime/")) continue;
      const to = layerOf(target, entries);
      if (to !== undefined && to !== from && !(table[from] ?? []).includes(to)) {
        violations.push(`${file} (${from}) imports ${target} (${to})`);
      }
    }
  }
  return violations;
}

/** A cycle among the table's layers once the mutual pair counts as one layer, or undefined. */
function tableCycle(table: Table, mutual: readonly [string, string]): string[] | undefined {
  const merged = (layer: string): string => (layer === mutual[1] ? mutual[0] : layer);
  const edges = new Map<string, string[]>();
  for (const [layer, allowed] of Object.entries(table)) {
    const from = merged(layer);
    const targets = allowed.map(merged).filter((to) => to !== from);
    edges.set(from, [...(edges.get(from) ?? []), ...targets]);
  }
  return findCycle([...edges.keys()], (layer) => edges.get(layer) ?? []);
}

/** The folder of a file under runtime/dialects/ (`duckdb`, `fixture`), or undefined for the root's files. */
function dialectFolderOf(file: string): string | undefined {
  return /^runtime\/dialects\/([^/]+)\//.exec(file)?.[1];
}

describe("architecture: the runtime's folders are layers", () => {
  const runtime = sourceFiles(["runtime"]);
  const entries = entryFiles();
  const imports = new Map<string, string[]>();
  const edgesOf = (file: string): string[] => {
    let targets = imports.get(file);
    if (targets === undefined) imports.set(file, (targets = importsOf(file).map((edge) => edge.target)));
    return targets;
  };

  it("reads the entries from package.json", () => {
    expect([...entries]).to.include.members(["runtime/index.ts", "runtime/config/index.ts", INTERNAL_ENTRY]);
  });

  it("codegen/ reaches the runtime only through the entries", () => {
    const deep = sourceFiles(["codegen"]).flatMap((file) =>
      edgesOf(file)
        .filter((target) => target.startsWith("runtime/") && !entries.has(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(deep).to.deep.equal([]);
  });

  it("knows the layer of every runtime file", () => {
    expect(runtime.filter((file) => layerOf(file, entries) === undefined)).to.deep.equal([]);
  });

  it("every import points to the own layer or one its row allows", () => {
    expect(layerViolations(runtime, edgesOf, LAYERS, entries)).to.deep.equal([]);
  });

  it(`the table is a DAG plus the ${MUTUAL.join(" ↔ ")} pair`, () => {
    expect(tableCycle(LAYERS, MUTUAL) ?? "acyclic").to.equal("acyclic");
  });

  it("a warehouse folder imports no other warehouse folder", () => {
    // A warehouse folder is one with its `<warehouse>-dialect.ts`; `fixture/` and `introspect/` are shared.
    const warehouses = new Set(
      runtime.filter((file) => file.endsWith(`/${dialectFolderOf(file)}-dialect.ts`)).map(dialectFolderOf),
    );
    const crossing = runtime.flatMap((file) => {
      const own = dialectFolderOf(file);
      if (!warehouses.has(own)) return [];
      return edgesOf(file)
        .filter((target) => {
          const other = dialectFolderOf(target);
          return other !== own && warehouses.has(other);
        })
        .map((target) => `${file} imports ${target}`);
    });
    expect(warehouses.size).to.be.greaterThanOrEqual(3);
    expect(crossing).to.deep.equal([]);
  });
});

describe("architecture: the layer checks themselves", () => {
  const entries = new Set(["runtime/index.ts"]);

  it("report an upward import and let entries import anything", () => {
    const graph: Record<string, string[]> = {
      "runtime/config/fields.ts": ["runtime/driver/deadline.ts", "runtime/dialects/dialects.ts"],
      "runtime/driver/driver.ts": ["runtime/engine/engine.ts"],
      "runtime/index.ts": ["runtime/view/field.ts"],
    };
    expect(layerViolations(Object.keys(graph), (file) => graph[file] ?? [], LAYERS, entries)).to.deep.equal([
      "runtime/config/fields.ts (config) imports runtime/dialects/dialects.ts (dialects)",
      "runtime/driver/driver.ts (driver) imports runtime/engine/engine.ts (engine)",
    ]);
  });

  it("report a cycle in the table other than the allowed pair", () => {
    const table: Table = { ...LAYERS, driver: ["errors", "engine"] };
    expect(tableCycle(table, MUTUAL)).to.deep.equal(["driver", "engine", "driver"]);
    expect(tableCycle({ a: ["b"], b: ["a"] }, ["a", "b"])).to.equal(undefined);
  });
});
