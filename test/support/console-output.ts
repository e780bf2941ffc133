/**
 * A program run in-process, as its console output: what `console.log`/`console.info` would print to
 * stdout and `console.error`/`console.warn` (and any process warning) to stderr, formatted as Node
 * formats them. Lets a test run a README program without paying a process start, while still
 * asserting exactly what a reader would see. Mocha's reporter keeps its own `console.log` reference,
 * so its output is not captured.
 */
import { format } from "node:util";

export interface ConsoleOutput {
  readonly stdout: string;
  readonly stderr: string;
}

export async function captureConsole(body: () => Promise<unknown>): Promise<ConsoleOutput> {
  let stdout = "";
  let stderr = "";
  const saved = { log: console.log, info: console.info, error: console.error, warn: console.warn };
  const warnings = process.listeners("warning");
  const toStdout = (...args: unknown[]): void => void (stdout += `${format(...args)}\n`);
  const toStderr = (...args: unknown[]): void => void (stderr += `${format(...args)}\n`);
  const onWarning = (warning: Error): void => toStderr(`(node) ${warning.name}: ${warning.message}`);
  Object.assign(console, { log: toStdout, info: toStdout, error: toStderr, warn: toStderr });
  process.removeAllListeners("warning");
  process.on("warning", onWarning);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    Object.assign(console, saved);
    process.off("warning", onWarning);
    for (const listener of warnings) process.on("warning", listener);
  }
  return { stdout, stderr };
}
