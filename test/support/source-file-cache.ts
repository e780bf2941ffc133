/**
 * Parsed source files shared by every in-process type check of this process (typescript-check.ts and
 * type-diagnostics.ts): parsing the standard library, @types and the runtime sources costs seconds per
 * program, so a worker that runs both kinds of check parses them once. Files parsed under equal
 * parse-affecting options and the same text are shared; TypeScript keeps a file's binding on it, so
 * that is shared too.
 */
import ts from "typescript";

/**
 * The options that change how a file parses or binds (TypeScript's own list,
 * `sourceFileAffectingCompilerOptions`, plus `strict`, which implies `alwaysStrict`).
 */
const PARSE_OPTIONS = [
  "target",
  "module",
  "moduleResolution",
  "moduleDetection",
  "jsx",
  "jsxImportSource",
  "importHelpers",
  "strict",
  "alwaysStrict",
  "noFallthroughCasesInSwitch",
  "allowUnusedLabels",
  "allowUnreachableCode",
] as const;

/** Parsed source files per parse-affecting options, reused while a file's text is unchanged. */
const parsed = new Map<string, Map<string, ts.SourceFile>>();

/** A `getSourceFile` for a compiler host under `options` that reads through `readFile` and parses each text once. */
export function cachedGetSourceFile(
  options: ts.CompilerOptions,
  readFile: (fileName: string) => string | undefined,
): ts.CompilerHost["getSourceFile"] {
  const optionsKey = JSON.stringify(PARSE_OPTIONS.map((name) => options[name]));
  const files = parsed.get(optionsKey) ?? new Map<string, ts.SourceFile>();
  parsed.set(optionsKey, files);
  return (fileName, languageVersion, onError) => {
    const text = readFile(fileName);
    if (text === undefined) {
      onError?.(`Cannot read file '${fileName}'.`);
      return undefined;
    }
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    const known = files.get(key);
    if (known !== undefined && known.text === text) return known;
    const file = ts.createSourceFile(fileName, text, languageVersion);
    files.set(key, file);
    return file;
  };
}
