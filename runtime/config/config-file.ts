/**
 * Reading `[connections.<name>]` from a `.lib.toml` file (smol-toml) and resolving it for the
 * backend its `type` names, among the `backends` the caller gives (`runtime/dialects/resolve-settings.ts`
 * gives the DIALECTS record and types the result).
 */
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { parse, TomlError } from "smol-toml";
import { ValidationError } from "../errors.js";
import { ConfigContext, type Environment } from "./config-context.js";
import type { ConfigurableBackend, ResolvedSettings } from "./dialect-config.js";
import { readBackendType, resolveConnection } from "./resolve-connection.js";

export const DEFAULT_CONFIG_PATH = ".lib.toml";
export const DEFAULT_CONNECTION_NAME = "default";

export interface LoadOptions {
  /** The TOML file; relative paths resolve against `process.cwd()`. Default `.lib.toml`. */
  readonly configPath?: string | undefined;
  /** Where environment fallbacks are read from. Default `process.env`. */
  readonly env?: Environment | undefined;
}

/**
 * Load and validate `[connections.<name>]`. Throws `ValidationError` when the file or the section
 * is missing, the TOML does not parse, or a field is invalid.
 */
export function loadSettingsFromFile(
  name: string,
  options: LoadOptions,
  backends: readonly ConfigurableBackend[],
): ResolvedSettings {
  const path = resolveConfigPath(options.configPath);
  const document = readDocument(path);
  if (document === undefined) {
    throw new ValidationError(
      `Configuration file ${path} does not exist (looking for [connections.${sectionKey(name)}])`,
      {
        source: path,
      },
    );
  }
  const connections = connectionsTable(document, path);
  const section = connections[name];
  if (section === undefined) {
    const existing = Object.keys(connections);
    const listed =
      existing.length === 0
        ? "it defines no [connections.<name>] sections"
        : `sections defined: ${existing.map(sectionKey).join(", ")}`;
    throw new ValidationError(`${path} has no [connections.${sectionKey(name)}] section; ${listed}`, { source: path });
  }
  return resolveSection(name, section, path, options.env ?? process.env, backends);
}

/**
 * Like {@link loadSettingsFromFile}, but returns `undefined` when the file or the section does
 * not exist (for `lib codegen`, which then exits with status 2). An invalid file or section still
 * throws `ValidationError`.
 */
export function loadSettingsFromFileIfPresent(
  name: string,
  options: LoadOptions,
  backends: readonly ConfigurableBackend[],
): ResolvedSettings | undefined {
  const path = resolveConfigPath(options.configPath);
  const document = readDocument(path);
  if (document === undefined) return undefined;
  const section = connectionsTable(document, path)[name];
  return section === undefined ? undefined : resolveSection(name, section, path, options.env ?? process.env, backends);
}

export function resolveConfigPath(configPath: string | undefined): string {
  return resolvePath(process.cwd(), configPath ?? DEFAULT_CONFIG_PATH);
}

function resolveSection(
  name: string,
  section: unknown,
  path: string,
  env: Environment,
  backends: readonly ConfigurableBackend[],
): ResolvedSettings {
  const ctx = new ConfigContext(`${path} [connections.${sectionKey(name)}]`, "toml", env);
  if (!isTable(section)) throw ctx.failSource("must be a table ([connections.<name>] with key = value lines)");
  const { type, ...fields } = section;
  return resolveConnection(readBackendType(type, ctx, backends, fields), fields, ctx, backends);
}

/** The parsed document, or undefined when the file does not exist. */
function readDocument(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new ValidationError(`Configuration file ${path} cannot be read (${code ?? "unknown error"})`, {
      source: path,
      cause: error,
    });
  }
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // Only the first line of smol-toml's message: the rest quotes the file, which may hold secrets.
    // For the same reason the TomlError is not attached as `cause`.
    const reason = error.message.split("\n")[0]?.replace(/^Invalid TOML document:\s*/, "") ?? "syntax error";
    throw new ValidationError(
      `${path}:${error.line}:${error.column}: invalid TOML (line ${error.line}, column ${error.column}): ${reason}`,
      {
        source: path,
      },
    );
  }
}

function connectionsTable(document: Record<string, unknown>, path: string): Record<string, unknown> {
  const connections = document["connections"];
  if (connections === undefined) return {};
  if (!isTable(connections)) {
    throw new ValidationError(`${path}: connections must be a table of [connections.<name>] sections`, {
      source: path,
      field: "connections",
    });
  }
  return connections;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A section name as it would be written in a TOML header. */
function sectionKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}
