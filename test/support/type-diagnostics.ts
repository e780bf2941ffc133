/**
 * In-process type checking for the tests that need TypeScript's diagnostics themselves (which line,
 * which message), not only whether a project compiles: the type-error message texts of test/types/,
 * and the compile-time acceptance of every metric–dimension pair of generated views. Files are checked
 * with the repository's tsconfig options (`lib` resolves to runtime/index.ts); a file's text can be
 * given in memory, also at a path that does not exist (then resolution walks up from there, so a
 * virtual file under the repository finds its node_modules). Parsed files are shared with every other
 * in-process check of this process (source-file-cache.ts).
 */
import { join } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { cachedGetSourceFile } from "./source-file-cache.js";

export interface CheckedFile {
  /** Absolute path (existing or virtual). */
  readonly fileName: string;
  /** The text to check instead of the file on disk. */
  readonly text?: string;
}

export interface LineDiagnostic {
  readonly fileName: string;
  /** 1-based. */
  readonly line: number;
  /** The whole message chain, one line per level (indented as `tsc` prints it). */
  readonly message: string;
  /** The TSxxxx number. */
  readonly code: number;
}

let options: ts.CompilerOptions | undefined;
function repositoryOptions(): ts.CompilerOptions {
  if (options === undefined) {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(REPO_ROOT, "tsconfig.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    );
    if (config === undefined) throw new Error("tsconfig.json could not be read");
    options = { ...config.options, noEmit: true };
  }
  return options;
}

/** Diagnostics (syntactic and semantic) of `files`, with their lines and flattened messages. */
export function diagnosticsOf(files: readonly CheckedFile[]): LineDiagnostic[] {
  const compilerOptions = repositoryOptions();
  const overrides = new Map(files.filter((f) => f.text !== undefined).map((f) => [f.fileName, f.text!]));
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = (fileName: string) => overrides.get(fileName) ?? ts.sys.readFile(fileName);
  host.readFile = readFile;
  host.fileExists = (fileName) => overrides.has(fileName) || ts.sys.fileExists(fileName);
  host.directoryExists = (dir) =>
    [...overrides.keys()].some((f) => f.startsWith(`${dir}/`)) || ts.sys.directoryExists(dir);
  host.getSourceFile = cachedGetSourceFile(compilerOptions, readFile);
  const program = ts.createProgram({ rootNames: files.map((f) => f.fileName), options: compilerOptions, host });
  const out: LineDiagnostic[] = [];
  for (const { fileName } of files) {
    const source = program.getSourceFile(fileName);
    if (source === undefined) throw new Error(`${fileName} is not in the program`);
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
      out.push({ fileName, line, code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, "\n") });
    }
  }
  return out;
}
