/**
 * The warehouse drivers are optional peer dependencies: a DuckDB-only install carries no Snowflake
 * or Databricks SDK, and `import "lib"` loads none of them. Each is loaded when its backend first
 * connects; a missing one becomes an error naming the package and the command that installs it
 * (instead of Node's bare ERR_MODULE_NOT_FOUND from deep inside the library).
 */
import { createRequire } from "node:module";
import { LibError } from "../errors.js";

/** An optional peer package and what needs it, as its dialect names it (`backend_c (DuckDB)`). */
export interface PeerPackage {
  readonly name: string;
  readonly usedFor: string;
}

/** An optional peer dependency that a backend needs is not installed. */
export class MissingPackageError extends LibError {
  override name = "MissingPackageError";
  constructor(
    readonly packageName: string,
    usedFor: string,
    cause: unknown,
  ) {
    super(
      `${usedFor} needs the npm package "${packageName}", which is not installed: run \`npm install ${packageName}\``,
      { cause },
    );
  }
}

/** True when `error` says that `packageName` itself (not one of its own dependencies) cannot be found. */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return typeof message === "string" && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
}

/** Awaits `load` (an `import()` of the package); a missing package throws `MissingPackageError`. */
export async function importPeer<T>(peer: PeerPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, peer.name)) throw new MissingPackageError(peer.name, peer.usedFor, error);
    throw error;
  }
}

const require = createRequire(import.meta.url);

/**
 * Loads a CommonJS-only peer synchronously (Node caches it: the same instance `import()` returns).
 * A missing package throws `MissingPackageError`.
 */
export function requirePeer<T>(peer: PeerPackage): T {
  try {
    return require(peer.name) as T;
  } catch (error) {
    if (isMissingPackage(error, peer.name)) throw new MissingPackageError(peer.name, peer.usedFor, error);
    throw error;
  }
}
