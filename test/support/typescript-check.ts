/**
 * Type-checks a TypeScript project in-process with the repository's TypeScript, as `tsc -p` would,
 * for the tests that compile generated code, README blocks or a consumer of the packed package.
 *
 * Why not spawn `tsc`: every spawn starts TypeScript again and parses and checks the whole library
 * from scratch (15–40 s on two busy cores). Here the parsed files (the standard library, @types,
 * the runtime sources) are kept between checks with the same parse options (source-file-cache.ts), and only the files a
 * test is about are checked (the config's files, and those `alsoCheck` accepts, e.g. a package's .d.ts).
 */
import ts from "typescript";
import { cachedGetSourceFile } from "./source-file-cache.js";

export interface CheckResult {
  /** 0 when there are no diagnostics, else 1 (what `tsc` exits with errors and no emit trouble). */
  readonly code: number;
  /** The diagnostics as `tsc` prints them (file(line,col): error TSxxxx: ...), "" when there are none. */
  readonly output: string;
}

export interface CheckOptions {
  /** Diagnostics are those of the config's own files, plus of the files this accepts (e.g. a package's .d.ts). */
  readonly alsoCheck?: (fileName: string) => boolean;
  /** Write the JavaScript output as the config says (only when there are no diagnostics). */
  readonly emit?: boolean;
}

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.getSourceFile = cachedGetSourceFile(options, (fileName) => host.readFile(fileName));
  return host;
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => "\n",
};

/** Checks the project of `tsconfigPath` (a tsconfig.json; `extends` is followed). */
export function checkProject(tsconfigPath: string, options: CheckOptions = {}): CheckResult {
  const configErrors: ts.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d) },
  );
  if (config === undefined) return result(configErrors);
  const host = cachingHost(config.options);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const roots = new Set(config.fileNames.map((name) => program.getSourceFile(name)));
  const checked = program.getSourceFiles().filter((file) => roots.has(file) || options.alsoCheck?.(file.fileName));
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  // Emitting file by file: program.emit() for all files would first check every file, declarations included.
  if (diagnostics.length === 0 && options.emit === true) {
    for (const file of roots) if (file !== undefined) diagnostics.push(...program.emit(file).diagnostics);
  }
  return result([...configErrors, ...diagnostics]);
}

function result(diagnostics: readonly ts.Diagnostic[]): CheckResult {
  return {
    code: diagnostics.length === 0 ? 0 : 1,
    output: ts.formatDiagnostics(diagnostics, formatHost),
  };
}
