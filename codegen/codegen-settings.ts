/**
 * What `lib codegen` connects to, following README "Code generation" and each dialect's
 * `codegen.source`: most backends read `[connections.<backend name>]` (never `[connections.default]`);
 * a database-file dialect (backend C) reads no section and takes its path from `--database` or
 * `<PREFIX>DATABASE`. Also reads the optional `[codegen]` table (DTO declarations) from the same file.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse as parseDotenv } from "dotenv";
import { parse as parseToml, TomlError } from "smol-toml";
import { loadConnectionSettingsIfPresent, type BackendType, type ConnectionSettings } from "../runtime/config/index.js";
import { closestFieldName, dialectOf, labelInSentence, ValidationError } from "../runtime/internal.js";
import type { DtoSpec } from "./emit/generated-file.js";
import { CodegenExit, ExitCode } from "./exit-codes.js";

export type Environment = Readonly<Record<string, string | undefined>>;

/** A database file (a `database-file` dialect) or the settings of `[connections.<backend>]`. */
export type CodegenTarget =
  | { readonly backend: BackendType; readonly database: string }
  | { readonly backend: BackendType; readonly settings: ConnectionSettings };

/**
 * The process environment with `.env` (from `cwd`) underneath: a variable already set in the
 * environment wins over `.env`, as with dotenv's default. Neither overrides a value in the TOML file.
 */
export function environmentWithDotenv(cwd: string, env: Environment): Environment {
  const path = resolve(cwd, ".env");
  if (!existsSync(path)) return env;
  let parsed: Record<string, string>;
  try {
    parsed = parseDotenv(readFileSync(path));
  } catch (error) {
    throw new CodegenExit(
      ExitCode.Usage,
      `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  const merged: Record<string, string | undefined> = { ...parsed };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * What the `lib` executable does first, like `dotenv.config()`: the variables of
 * `.env` in `cwd` that `env` (the process environment) does not set are added to it, so whatever
 * reads the process environment (the engine's settings resolution does) sees them too. An unreadable
 * `.env` is left for `runCli` to report with exit status 2.
 */
export function loadDotenv(cwd: string, env: Record<string, string | undefined>): void {
  let merged: Environment;
  try {
    merged = environmentWithDotenv(cwd, env);
  } catch {
    return;
  }
  for (const [key, value] of Object.entries(merged))
    if (env[key] === undefined && value !== undefined) env[key] = value;
}

export interface TargetOptions {
  readonly backend: BackendType;
  readonly database?: string | undefined;
  /** Absolute path of the TOML file. */
  readonly configPath: string;
  readonly env: Environment;
  readonly cwd: string;
}

export function resolveTarget(options: TargetOptions): CodegenTarget {
  const { backend, configPath, env, cwd } = options;
  const dialect = dialectOf(backend);
  if (dialect.codegen.source.kind === "database-file") {
    const variable = `${dialect.config.envPrefix}DATABASE`;
    const database = options.database ?? nonEmpty(env[variable]);
    if (database === undefined) {
      throw new CodegenExit(
        ExitCode.Usage,
        `--backend ${backend} needs a database path: pass --database <path> or set ${variable} (${labelInSentence(backend)} reads no [connections] section)`,
      );
    }
    if (database === ":memory:") {
      throw new CodegenExit(
        ExitCode.Usage,
        `--backend ${backend} needs a database file; :memory: holds no semantic views`,
      );
    }
    const path = resolve(cwd, database);
    // Opening a missing file would create an empty database (and report "no views"): refuse instead.
    if (!existsSync(path))
      throw new CodegenExit(
        ExitCode.Usage,
        `the database file ${path} does not exist (check --database or ${variable})`,
      );
    return { backend, database: path };
  }
  if (!existsSync(configPath)) {
    throw new CodegenExit(
      ExitCode.Usage,
      `--backend ${backend} reads [connections.${backend}] from ${configPath}, which does not exist`,
    );
  }
  let settings: ConnectionSettings | undefined;
  try {
    settings = loadConnectionSettingsIfPresent(backend, { configPath, env });
  } catch (error) {
    if (error instanceof ValidationError) throw new CodegenExit(ExitCode.Usage, error.message, { cause: error });
    throw error;
  }
  if (settings === undefined) {
    const found = sectionNames(configPath);
    const listed =
      found.length === 0
        ? "it defines no [connections.<name>] sections"
        : `it defines ${found.map((n) => `[connections.${n}]`).join(", ")}`;
    throw new CodegenExit(
      ExitCode.Usage,
      `${configPath} has no [connections.${backend}] section (${listed}). lib codegen --backend ${backend} reads the section ` +
        `named after the backend; [connections.default] serves the application only. Add a [connections.${backend}] section.`,
    );
  }
  if (settings.type !== backend) {
    throw new CodegenExit(
      ExitCode.Usage,
      `${configPath} [connections.${backend}] has type = "${settings.type}", but lib codegen --backend ${backend} needs type = "${backend}"`,
    );
  }
  return { backend, settings };
}

/** `[codegen.dtos.<Name>]` tables: `view = "sales"`, `fields = ["country", "revenue"]`. */
export function readDtoSpecs(configPath: string): DtoSpec[] {
  const document = readToml(configPath);
  if (document === undefined) return [];
  const codegen = document["codegen"];
  if (codegen === undefined) return [];
  if (!isTable(codegen)) throw configError(configPath, "codegen must be a table");
  for (const key of Object.keys(codegen)) {
    if (key !== "dtos")
      throw configError(
        configPath,
        `[codegen] has no key ${key}${didYouMean(key, ["dtos"], "codegen.")} (it holds [codegen.dtos.<Name>] sections)`,
      );
  }
  const dtos = codegen["dtos"];
  if (dtos === undefined) return [];
  if (!isTable(dtos)) throw configError(configPath, "codegen.dtos must be a table of [codegen.dtos.<Name>] sections");
  return Object.entries(dtos).map(([name, spec]) => {
    const where = `[codegen.dtos.${name}]`;
    if (!isTable(spec)) throw configError(configPath, `${where} must be a table with view and fields`);
    const { view, fields, ...rest } = spec;
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      throw configError(
        configPath,
        `${where}: unknown field ${unknown[0]}${didYouMean(unknown[0]!, ["view", "fields"], "")} (allowed: view, fields)`,
      );
    if (typeof view !== "string" || view === "")
      throw configError(configPath, `${where}: view must be a non-empty string`);
    if (!Array.isArray(fields) || !fields.every((f): f is string => typeof f === "string")) {
      throw configError(configPath, `${where}: fields must be an array of field names`);
    }
    return { name, view, fields };
  });
}

function sectionNames(configPath: string): string[] {
  const connections = readToml(configPath)?.["connections"];
  return isTable(connections) ? Object.keys(connections) : [];
}

function readToml(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return parseToml(readFileSync(path, "utf8"));
  } catch (error) {
    // Only the position: smol-toml's message quotes the file, which may hold secrets.
    if (error instanceof TomlError)
      throw configError(path, `invalid TOML at line ${error.line}, column ${error.column}`);
    throw configError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

function didYouMean(name: string, candidates: readonly string[], prefix: string): string {
  const closest = closestFieldName(name, candidates);
  return closest === undefined ? "" : ` (did you mean ${prefix}${closest}?)`;
}

function configError(path: string, message: string): CodegenExit {
  return new CodegenExit(ExitCode.Usage, `${path}: ${message}`);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
