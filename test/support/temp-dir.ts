/**
 * Temporary directories for tests, always removed afterwards: `tempDir()` for one scope
 * (`await using dir = await tempDir()`), `useTempDir()` for a fresh one per test (mocha hooks).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir extends AsyncDisposable {
  readonly path: string;
  /** The path of `name` inside the directory. */
  file(name?: string): string;
}

/** A new directory under the OS temp dir holding `files` (name → text). */
export async function tempDir(files: Readonly<Record<string, string>> = {}): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), "lib-test-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(path, name), text, "utf8");
  return {
    path,
    file: (name = "db.duckdb") => join(path, name),
    [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }),
  };
}

/**
 * Mocha hooks: a fresh directory for every test (`scope: "each"`) or one for the whole `describe`
 * (`"all"`). Register it before hooks that use it: mocha runs hooks in registration order.
 */
export function useTempDir(scope: "each" | "all" = "each"): Omit<TempDir, typeof Symbol.asyncDispose> {
  let current: TempDir | undefined;
  const [setUp, tearDown] = scope === "each" ? [beforeEach, afterEach] : [before, after];
  setUp(async () => {
    current = await tempDir();
  });
  tearDown(async () => {
    const dir = current;
    current = undefined;
    await dir?.[Symbol.asyncDispose]();
  });
  const dir = (): TempDir => {
    if (current === undefined) throw new Error("useTempDir(): the directory exists only inside a test or hook");
    return current;
  };
  return {
    get path(): string {
      return dir().path;
    },
    file: (name?: string) => dir().file(name),
  };
}
