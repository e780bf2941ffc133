/**
 * `npm test`: the type check (`tsc -p tsconfig.json --noEmit`) and the format check (`prettier
 * --check .`) run beside the mocha suite instead of before it. Mocha leaves part of a 2-core machine
 * idle (its tests wait on sockets, child processes and timers), and the checks take about a minute
 * of CPU, so running them in that slack saves most of a minute. They run at a lower CPU priority so
 * the suite keeps its pace; their output is printed after the suite, and the run fails if any of the
 * three fails. Arguments go to mocha: `npm test -- --grep pool`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const bin = (name: string): string => join(ROOT, "node_modules", ".bin", name);

/** The checks, as `npm run typecheck` and `npm run format:check` run them. */
export const CHECKS = [
  { name: "typecheck", command: "tsc", args: ["-p", "tsconfig.json", "--noEmit"] },
  { name: "format:check", command: "prettier", args: ["--check", "."] },
] as const;
export const MOCHA_ARGS = ["test/**/*.test.ts"] as const;
/** Added to the checks' nice value: the suite, not the checks, gets the CPU when both want it. */
const CHECK_NICENESS = 10;

export interface Command {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

interface Outcome extends Command {
  readonly code: number;
  readonly output: string;
}

/** The repository's own `npm test`: its checks and mocha from node_modules/.bin. */
export const NPM_TEST = {
  checks: CHECKS.map((c) => ({ ...c, command: bin(c.command) })),
  mocha: { name: "mocha", command: bin("mocha"), args: MOCHA_ARGS },
};

const children = new Set<ChildProcess>();

function exited(child: ChildProcess): Promise<number> {
  children.add(child);
  return new Promise((done) => {
    child.on("error", () => done(1));
    child.on("close", (code, signal) => {
      children.delete(child);
      done(code ?? (signal === null ? 1 : 128));
    });
  });
}

async function check(c: Command): Promise<Outcome> {
  const child = spawn(c.command, c.args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, CHECK_NICENESS);
    } catch {
      // Not permitted here: the check still runs, at normal priority.
    }
  }
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { ...c, code: await exited(child), output };
}

/**
 * Starts the checks, runs mocha (its output straight to the terminal) with `extraArgs`, then prints
 * each check's verdict and output. Resolves to the first non-zero exit code: mocha's, then the checks'.
 */
export async function runTests(
  plan: { readonly checks: readonly Command[]; readonly mocha: Command },
  extraArgs: readonly string[] = [],
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const checks = plan.checks.map(check);
  const mocha = spawn(plan.mocha.command, [...plan.mocha.args, ...extraArgs], { cwd: ROOT, stdio: "inherit" });
  const mochaCode = await exited(mocha);
  const outcomes = await Promise.all(checks);
  for (const { name, code, output } of outcomes) {
    write(`\n> ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}\n`);
    if (output.trim() !== "") write(output.endsWith("\n") ? output : `${output}\n`);
  }
  return [mochaCode, ...outcomes.map((o) => o.code)].find((code) => code !== 0) ?? 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      for (const child of children) child.kill(signal);
    });
  }
  process.exitCode = await runTests(NPM_TEST, process.argv.slice(2));
}
