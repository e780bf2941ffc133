#!/usr/bin/env node
/** The `lib` executable: `lib codegen ...`. See `lib codegen --help` for flags and exit status. */
import { runCli } from "./cli.js";
import { loadDotenv } from "./codegen-settings.js";

const cwd = process.cwd();
loadDotenv(cwd, process.env);
process.exitCode = await runCli(process.argv.slice(2), {
  cwd,
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
