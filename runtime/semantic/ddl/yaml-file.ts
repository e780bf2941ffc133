/**
 * Reads the body of `CREATE SEMANTIC VIEW ... FROM YAML FILE '<path>'`. The file is read by DuckDB
 * itself (`read_text`), on the caller's session, as the extension does: relative paths resolve
 * against DuckDB's working directory and the database's file-access settings
 * (`enable_external_access`, `allowed_directories`) apply.
 */
import { stat } from "node:fs/promises";
import type { SqlSession } from "../semantic-layer.js";
import { SemanticViewError } from "../semantic-error.js";

const MAX_BYTES = 1024 * 1024;
const GLOB = /[*?[\]{}]/;

export async function readYamlFile(session: SqlSession, path: string): Promise<string> {
  // read_text expands globs; a definition comes from exactly one named file.
  if (GLOB.test(path))
    throw new SemanticViewError("invalid", `FROM YAML FILE '${path}': the path must name one file (no wildcards)`);
  await refuseSpecialFile(path);
  let rows: unknown[][];
  try {
    ({ rows } = await session.query("SELECT content, size FROM read_text($1)", [path]));
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    throw new SemanticViewError("invalid", `FROM YAML FILE '${path}': cannot read the file: ${detail}`, {
      cause: error,
    });
  }
  const row = rows[0];
  if (row === undefined)
    throw new SemanticViewError(
      "invalid",
      `FROM YAML FILE '${path}': cannot read the file: not found, or not a regular file`,
    );
  if (Number(row[1]) > MAX_BYTES)
    throw new SemanticViewError("parse", `FROM YAML FILE '${path}': YAML definition exceeds the 1 MiB size limit`);
  return String(row[0]);
}

/** `s3://`, `https://`, ...: read by a DuckDB file system, never a local special file. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]+:\/\//i;

/**
 * A FIFO, socket or device would block `read_text` (a FIFO waits for a writer forever) or stream
 * without end; a directory is no definition. Local paths are checked before DuckDB opens them
 * (in-process DuckDB resolves relative paths against the same working directory). A path that
 * cannot be stat'ed is left to DuckDB, which reports it with its own access rules.
 */
async function refuseSpecialFile(path: string): Promise<void> {
  if (URL_SCHEME.test(path)) return;
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || info.isFile()) return;
  const kind = info.isDirectory()
    ? "a directory"
    : info.isFIFO()
      ? "a FIFO"
      : info.isSocket()
        ? "a socket"
        : "a device or other special file";
  throw new SemanticViewError(
    "invalid",
    `FROM YAML FILE '${path}': cannot read the file: not a regular file (${kind})`,
  );
}
