/**
 * Runs the real `lib` binary (codegen/bin.ts through tsx) as a child process in a temporary
 * working directory, with a controlled environment (no BACKEND_* variables leak in from the host).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(REPO_ROOT, "codegen", "bin.ts");
const TSX = import.meta.resolve("tsx");

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runLib(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? options.cwd,
    TSX_TSCONFIG_PATH: join(REPO_ROOT, "tsconfig.json"),
    NO_COLOR: "1",
    ...options.env,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", TSX, BIN, ...args],
      { cwd: options.cwd, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
