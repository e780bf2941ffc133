/**
 * Plain-JavaScript copies of the repository's TypeScript, for tests that start a child process whose
 * subject is the process (its exit code, output, signals, stdio protocol), not the `node --import tsx`
 * command. A child through tsx pays ~3 s of CPU: on Node 20 every module's resolve and load crosses
 * to tsx's hooks thread. The same child in plain JavaScript starts in ~0.5 s. (The README's own
 * `node --import tsx` and `npm start` commands keep being tested as they are, in lifespan.test.ts.)
 *
 * `plainJs(["example-service/main.ts"])` transpiles the entries and every file they import by a
 * relative path, one file at a time (TypeScript's `transpileModule`, no type check: `npm test`'s type
 * check covers these sources), into a folder under the OS temp folder that mirrors the repository's
 * layout and is named by a hash of what it holds. `lib` and `lib/*` are the built library, as in an
 * installed package: the folder's package.json carries lib's name and `exports` (a package's
 * self-reference) and its dist/ is a link to the repository's, which must be the build of the current
 * sources (`npm test` builds it first, scripts/test.ts). What a transpiled folder holds besides
 * TypeScript (example-service/public/) is linked, and so is node_modules. Workers and runs share a
 * folder while the sources are unchanged; folders unused for a day are removed.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { isBuildOf } from "../../scripts/build.js";
import { REPO_ROOT } from "../codegen/support/run-cli.js";

/** Changing how this file transpiles changes this, so no folder of an older helper is reused. */
const FORMAT = "plain-js 1";
const CACHE = join(tmpdir(), "lib-test-plain-js");
const UNUSED_MS = 24 * 3600_000;

interface PackageJson {
  readonly name: string;
  readonly type: string;
  readonly exports: Record<string, unknown>;
}

function importsLib(text: string): boolean {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.some(({ fileName }) => fileName === "lib" || fileName.startsWith("lib/"));
}

/** The TypeScript files the entries load: they and, transitively, what they import by a relative path. */
function closure(entries: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  const queue = entries.map((entry) => resolve(REPO_ROOT, entry));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (texts.has(file)) continue;
    const text = readFileSync(file, "utf8");
    texts.set(file, text);
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
      if (target.endsWith(".ts") && existsSync(target)) queue.push(target);
    }
  }
  return texts;
}

/** lib's name, module type and `exports` (into dist/): `import "lib"` in the folder is the built library. */
function packageJson(): string {
  const { name, type, exports } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;
  return `${JSON.stringify({ name, private: true, type, exports }, null, 2)}\n`;
}

/** Throws unless dist/ is the build of the current sources (what `import "lib"` in the folder loads). */
function requireCurrentBuild(): void {
  if (!isBuildOf(join(REPO_ROOT, "dist"), REPO_ROOT)) {
    throw new Error(
      "dist/ is not the build of the current sources, and this test runs the built library: run `npm run build` (npm test builds it first)",
    );
  }
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022, // as tsconfig.json
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
};

/** One module's JavaScript (syntax errors throw). */
function javaScriptOf(file: string, text: string): string {
  const { outputText, diagnostics } = ts.transpileModule(text, {
    compilerOptions: COMPILER_OPTIONS,
    fileName: file,
    reportDiagnostics: true,
  });
  const [first] = diagnostics ?? [];
  if (first !== undefined) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(first.messageText, "\n")}`);
  return outputText;
}

/**
 * Writes the JavaScript of one TypeScript module beside it (`x.ts` → `x.js`) and returns its path: for
 * a module a test writes (e.g. a fixture) that a plain-JavaScript child imports. Its `lib` imports
 * resolve as the repository's package resolves them: to dist/.
 */
export function transpileBeside(file: string): string {
  if (importsLib(readFileSync(file, "utf8"))) requireCurrentBuild();
  const out = file.replace(/\.ts$/, ".js");
  writeFileSync(out, javaScriptOf(file, readFileSync(file, "utf8")));
  return out;
}

function transpile(texts: ReadonlyMap<string, string>, into: string): void {
  const folders = new Set<string>();
  for (const [file, text] of texts) {
    const out = join(into, relative(REPO_ROOT, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, javaScriptOf(file, text));
    folders.add(dirname(file));
  }
  // What a folder holds besides TypeScript (assets a module finds beside itself, e.g. public/).
  for (const folder of folders) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const source = join(folder, entry.name);
      const target = join(into, relative(REPO_ROOT, source));
      if (entry.name.endsWith(".ts") || folders.has(source) || existsSync(target)) continue;
      symlinkSync(source, target, entry.isDirectory() ? "dir" : "file");
    }
  }
  writeFileSync(join(into, "package.json"), packageJson());
  for (const link of ["node_modules", "dist"]) symlinkSync(join(REPO_ROOT, link), join(into, link), "dir");
}

function pruneUnused(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const folder = join(CACHE, name);
    try {
      if (folder !== keep && Date.now() - statSync(folder).mtimeMs > UNUSED_MS)
        rmSync(folder, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

/** The transpiled folder holding `entries` (paths relative to the repository) and what they import. */
export function plainJs(entries: readonly string[]): { readonly root: string; path(source: string): string } {
  const texts = closure(entries);
  if ([...texts.values()].some(importsLib)) requireCurrentBuild();
  const hash = createHash("sha256").update(`${FORMAT}\n${ts.version}\n${REPO_ROOT}\n${packageJson()}`);
  for (const file of [...texts.keys()].sort()) hash.update(`${relative(REPO_ROOT, file)}\n${texts.get(file)}\n`);
  const root = join(CACHE, hash.digest("hex").slice(0, 20));
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(root)) {
    // Built aside and renamed: another worker building the same folder meanwhile loses nothing.
    const partial = `${root}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    try {
      transpile(texts, partial);
      renameSync(partial, root);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(root)) throw error;
    }
    pruneUnused(root);
  } else {
    const now = new Date();
    utimesSync(root, now, now);
  }
  return { root, path: (source) => join(root, source).replace(/\.ts$/, ".js") };
}
