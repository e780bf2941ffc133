/**
 * Runs the `lib` command line for tests, in a temporary working directory, with a controlled
 * environment (no BACKEND_* variables leak in from the host).
 *
 * `runLib` calls the CLI in-process (`runCli`, what codegen/bin.ts calls), which is what the CLI
 * tests are about: flags, files, exit status, output. What bin.ts adds (`.env` loaded into the
 * process environment) is `loadDotenv`, tested in settings.test.ts; the installed executable itself
 * runs in test/package/pack.test.ts (`npx lib codegen --help`).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../../../codegen/cli.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(REPO_ROOT, "codegen", "bin.ts");

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
