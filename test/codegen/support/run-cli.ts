/**
 * Runs the `lib` command line for tests, in a temporary working directory, with a controlled
 * environment (no BACKEND_* variables leak in from the host).
 *
 * `runLib` calls the CLI in-process (`runCli`, what codegen/bin.ts calls), which is what nearly
 * every CLI test is about: flags, files, exit status, output. `runLibBinary` spawns the real
 * executable, for a test whose subject is the process itself (none today: bin.ts's own work, the
 * `.env` loading, is tested in-process as `loadDotenv`); each spawn costs seconds of startup.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../../../codegen/cli.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(REPO_ROOT, "codegen", "bin.ts");
const TSX = import.meta.resolve("tsx");

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
}

function environment(options: CliOptions): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? options.cwd,
    NO_COLOR: "1",
    ...options.env,
  };
}

/** `lib <args>` in-process: the CLI's own entry with this environment; output as the binary prints it. */
export async function runLib(args: readonly string[], options: CliOptions): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    cwd: options.cwd,
    env: environment(options),
    stdout: (line) => (stdout += `${line}\n`),
    stderr: (line) => (stderr += `${line}\n`),
  });
  return { code, stdout, stderr };
}

/** `lib <args>` as a child process: the real executable (codegen/bin.ts through tsx). */
export function runLibBinary(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const env = { ...environment(options), TSX_TSCONFIG_PATH: join(REPO_ROOT, "tsconfig.json") };
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
