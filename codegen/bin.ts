#!/usr/bin/env node
/** The `lib` executable: `lib codegen ...`. See `lib codegen --help` for flags and exit status. */
import { runCli } from "./cli.js";
import { environmentWithDotenv } from "./codegen-settings.js";

const cwd = process.cwd();
// Like dotenv.config(): .env fills variables the environment does not set, so the engine's own
// settings resolution (which reads process.env) sees them too.
try {
  for (const [key, value] of Object.entries(environmentWithDotenv(cwd, process.env))) {
    if (process.env[key] === undefined && value !== undefined) process.env[key] = value;
  }
} catch {
  // runCli reports an unreadable .env with exit status 2.
}
process.exitCode = await runCli(process.argv.slice(2), {
  cwd,
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
