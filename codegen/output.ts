/**
 * Comparing generated files with an output directory (`--check`) and writing them. A file in the
 * directory belongs to the generator when it starts with the generated marker; such files that the
 * current run no longer produces are stale (reported by `--check`, deleted on write).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { GENERATED_MARKER, type GeneratedFile } from "./emit/generated-file.js";
import { unifiedDiff } from "./diff.js";

export type DriftStatus = "changed" | "missing" | "stale";

export interface Drift {
  readonly path: string;
  readonly status: DriftStatus;
  /** A short unified-style diff (current file → generated). */
  readonly diff: string;
}

/** The file's text, or undefined when it does not exist. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Which of the directory's generated files a run manages (`lib codegen-dto`: only the DTO modules). */
export type Owns = (path: string) => boolean;

const ALL: Owns = () => true;

/** Generator-owned `.ts` files currently in `outDir` (relative paths) that `owns` accepts. */
async function ownedFiles(outDir: string, owns: Owns): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const owned: string[] = [];
  for (const entry of entries.filter((e) => e.endsWith(".ts") && owns(e)).sort()) {
    const text = await readIfExists(join(outDir, entry));
    if (text?.startsWith(GENERATED_MARKER)) owned.push(entry);
  }
  return owned;
}

export async function findDrift(
  outDir: string,
  files: readonly GeneratedFile[],
  owns: Owns = ALL,
  maxDiffLines = 20,
): Promise<Drift[]> {
  const drift: Drift[] = [];
  for (const file of files) {
    const current = await readIfExists(join(outDir, file.path));
    if (current === file.text) continue;
    drift.push({
      path: file.path,
      status: current === undefined ? "missing" : "changed",
      diff: unifiedDiff(current ?? "", file.text, file.path, maxDiffLines),
    });
  }
  const produced = new Set(files.map((f) => f.path));
  for (const path of await ownedFiles(outDir, owns)) {
    if (produced.has(path)) continue;
    const current = (await readIfExists(join(outDir, path))) ?? "";
    drift.push({ path, status: "stale", diff: unifiedDiff(current, "", path, maxDiffLines) });
  }
  return drift;
}

export interface WriteSummary {
  readonly written: string[];
  readonly unchanged: string[];
  readonly removed: string[];
}

/** Writes the files (LF, UTF-8), leaving identical ones untouched, and removes stale generated files `owns` accepts. */
export async function writeOutput(
  outDir: string,
  files: readonly GeneratedFile[],
  owns: Owns = ALL,
): Promise<WriteSummary> {
  await mkdir(outDir, { recursive: true });
  const summary: WriteSummary = { written: [], unchanged: [], removed: [] };
  for (const file of files) {
    const target = join(outDir, file.path);
    if ((await readIfExists(target)) === file.text) {
      summary.unchanged.push(file.path);
      continue;
    }
    await writeFile(target, file.text, "utf8");
    summary.written.push(file.path);
  }
  const produced = new Set(files.map((f) => f.path));
  for (const path of await ownedFiles(outDir, owns)) {
    if (produced.has(path)) continue;
    await rm(join(outDir, path));
    summary.removed.push(path);
  }
  return summary;
}
