/**
 * The repository's source files and their imports, read with the TypeScript parser (no type
 * checking, so it stays fast): what the architecture rules in `architecture.test.ts` inspect.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Folders that are not the repository's own files (dependencies, build output, local data). */
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", "coverage", "test-output", "demo-data"]);

export interface ImportEdge {
  /** Repository-relative path (with `/`) of the imported file, or the bare specifier of a package. */
  readonly target: string;
  /** `import type` / `export type`: erased at runtime, so it cannot take part in a load cycle. */
  readonly typeOnly: boolean;
  /** `import("...")`: evaluated lazily, so it cannot take part in a load cycle either. */
  readonly dynamic: boolean;
}

/** listFiles() per root: the architecture tests ask often, and the tree does not change during a run. */
const listed = new Map<string, readonly string[]>();

/** Every file under `root` (repository-relative, `/`-separated), skipping dot folders and build output. */
export function listFiles(root: string = REPO_ROOT): string[] {
  const known = listed.get(root);
  if (known !== undefined) return [...known];
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (entry.isFile()) {
        found.push(relative(root, path).split(sep).join("/"));
      }
    }
  };
  walk(root);
  listed.set(root, Object.freeze(found.sort()));
  return [...found];
}

/** The `.ts` sources under the given top-level folders. */
export function sourceFiles(folders: readonly string[]): string[] {
  return listFiles().filter((file) => file.endsWith(".ts") && folders.some((folder) => file.startsWith(`${folder}/`)));
}

export function lineCount(file: string): number {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

/** importsOf() of the repository's files, parsed once per process (several architecture tests walk the same graph). */
const importsByFile = new Map<string, readonly ImportEdge[]>();

/** The imports and re-exports of one file, relative specifiers resolved to repository paths. */
export function importsOf(file: string, text?: string): ImportEdge[] {
  if (text !== undefined) return parseImports(file, text);
  let edges = importsByFile.get(file);
  if (edges === undefined) {
    edges = Object.freeze(parseImports(file, readFileSync(join(REPO_ROOT, file), "utf8")));
    importsByFile.set(file, edges);
  }
  return [...edges];
}

function parseImports(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean, dynamic: boolean): void => {
    if (specifier !== undefined && ts.isStringLiteralLike(specifier)) {
      edges.push({ target: resolveSpecifier(file, specifier.text), typeOnly, dynamic });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // `import { type A }` still loads the module under verbatimModuleSyntax; only `import type` is erased.
      add(node.moduleSpecifier, node.importClause?.isTypeOnly === true, false);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** `./x.js` → the repository path of `x.ts`; `lib` → the public entry; other bare names stay as written. */
function resolveSpecifier(from: string, specifier: string): string {
  if (specifier === "lib") return "runtime/index.ts";
  if (!specifier.startsWith(".")) return specifier;
  const joined = join(dirname(from), specifier).split(sep).join("/");
  return joined.replace(/\.js$/, ".ts");
}

/** The first import cycle found among `files` (a path that ends where it starts), or undefined. */
export function findCycle(
  files: readonly string[],
  edgesOf: (file: string) => readonly string[],
): string[] | undefined {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, "visiting");
    stack.push(file);
    for (const next of edgesOf(file)) {
      if (state.get(next) === "visiting") return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle !== undefined) return cycle;
      }
    }
    stack.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of files) {
    if (state.get(file) === undefined) {
      const cycle = visit(file);
      if (cycle !== undefined) return cycle;
    }
  }
  return undefined;
}
