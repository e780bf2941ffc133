/**
 * Mocha root-hook plugin (`require` in .mocharc.json): measures how long each test file runs and prints
 * the slowest ten after the run, so a slow suite is visible the day it lands. A file's time runs from its
 * first top-level suite starting to its last one ending (its hooks included); loading every file
 * (transpiling and importing) happens before that and is printed as one line. Under `--parallel`
 * (npm test) each worker times its files with root hooks and hands them to the main process.
 * `LIB_TEST_TIMINGS=off` prints nothing; `LIB_TEST_TIMINGS_FILE=<path>` also writes every file's wall and
 * CPU seconds as JSON: `cpu` is the mocha process's (or worker's) own, `children` the CPU of the child processes it
 * reaped meanwhile (npm, tsc, the lib binary; Linux only). Unlike wall time, both are barely moved by
 * other load on the machine, so runs compare.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Context, Runner, Suite } from "mocha";

const SHOWN = 10;

/** CPU milliseconds of the reaped child processes (`cutime + cstime` of /proc/self/stat); 0 where there is none. */
export function childrenCpu(stat: () => string = () => readFileSync("/proc/self/stat", "utf8")): number {
  try {
    // The fields after the command name (which may hold spaces) end with ")".
    const text = stat();
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of proc(5), counted from 1 with pid and comm first: index 13 and 14 here.
    const ms = ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
    return Number.isFinite(ms) ? ms : 0;
  } catch {
    return 0;
  }
}
/** sysconf(_SC_CLK_TCK): 100 on every Linux Node supports. */
const CLOCK_TICKS = 100;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1).padStart(6)} s`;
}

/** One file's times in milliseconds: wall clock, this process's CPU, its reaped children's CPU. */
export interface FileTime {
  readonly wall: number;
  readonly cpu: number;
  readonly children: number;
}

/** Per-file times from a runner's suite events (one process) or from root hooks (each worker of --parallel). */
export class FileTimer {
  readonly spent = new Map<string, number>();
  /** CPU time of this process per file (ms): unlike wall time, barely moved by other load on the machine. */
  readonly cpu = new Map<string, number>();
  /** CPU time of the child processes reaped while the file ran (ms). */
  readonly children = new Map<string, number>();
  readonly #opened = new Map<string, { wall: number; cpu: number; children: number }>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly root: string = process.cwd(),
    private readonly cpuNow: () => number = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    private readonly childrenNow: () => number = () => childrenCpu(),
  ) {}

  #fileOf(suite: Suite): string | undefined {
    return suite.parent?.root && suite.file ? relative(this.root, suite.file) : undefined;
  }

  /** A file starts (the first call counts). */
  open(file: string): void {
    if (!this.#opened.has(file))
      this.#opened.set(file, { wall: this.now(), cpu: this.cpuNow(), children: this.childrenNow() });
  }

  /** A file ends (the last call counts): its times since it opened. */
  close(file: string): FileTime | undefined {
    const began = this.#opened.get(file);
    if (began === undefined) return undefined;
    const time = {
      wall: this.now() - began.wall,
      cpu: this.cpuNow() - began.cpu,
      children: this.childrenNow() - began.children,
    };
    this.record(file, time);
    return time;
  }

  /** A file's times, measured here or by a worker process (milliseconds). */
  record(file: string, time: FileTime): void {
    this.spent.set(file, time.wall);
    this.cpu.set(file, time.cpu);
    this.children.set(file, time.children);
  }

  listen(runner: { on(event: "suite" | "suite end", listener: (suite: Suite) => void): unknown }): void {
    runner.on("suite", (suite: Suite) => {
      const file = this.#fileOf(suite);
      if (file !== undefined) this.open(file);
    });
    runner.on("suite end", (suite: Suite) => {
      const file = this.#fileOf(suite);
      if (file !== undefined) this.close(file);
    });
  }

  /** The table printed after the run: the `count` slowest files, then all of them together. */
  slowest(count = SHOWN, loadSeconds?: number): string {
    const rows = [...this.spent].sort((a, b) => b[1] - a[1]).slice(0, count);
    const total = [...this.spent.values()].reduce((sum, ms) => sum + ms, 0);
    const loading = loadSeconds === undefined ? "" : ` (plus ${loadSeconds.toFixed(1)} s loading them)`;
    return [
      `Slowest ${rows.length} of ${this.spent.size} test files:`,
      ...rows.map(([file, ms]) => `  ${seconds(ms)}  ${file}`),
      `  ${seconds(total)}  all files${loading}`,
    ].join("\n");
  }

  /** Every file's wall, own CPU and children's CPU seconds, slowest first. */
  toJSON(): Record<string, { wall: number; cpu: number; children: number }> {
    const s = (ms: number | undefined): number => Math.round(ms ?? 0) / 1000;
    return Object.fromEntries(
      [...this.spent]
        .sort((a, b) => b[1] - a[1])
        .map(([file, ms]) => [file, { wall: s(ms), cpu: s(this.cpu.get(file)), children: s(this.children.get(file)) }]),
    );
  }
}

const run = new FileTimer();
let startedAt = 0;
let loadSeconds: number | undefined;
/** Set by the global setup, which mocha runs only in its main process (never in a --parallel worker). */
let inMainProcess = false;

/** Where --parallel workers append their files' times for the main process (`pid`: the main process). */
export function workerTimingsPath(pid: number): string {
  return join(tmpdir(), `lib-test-timings-${pid}.jsonl`);
}

/** Global setup runs with the runner as `this`: listen to its suite events. */
export function mochaGlobalSetup(this: Runner): void {
  inMainProcess = true;
  loadSeconds = process.uptime();
  run.listen(this);
  startedAt = performance.now();
}

/**
 * In a --parallel worker, each test file is its own run, so the root hooks open and close it; the
 * times go to the main process through workerTimingsPath(). (In one process the suite events do it.)
 */
export const mochaHooks = {
  beforeAll(this: Context): void {
    const file = inMainProcess ? undefined : fileOfRun(this);
    if (file !== undefined) run.open(file);
  },
  afterAll(this: Context): void {
    const file = inMainProcess ? undefined : fileOfRun(this);
    const time = file === undefined ? undefined : run.close(file);
    if (time !== undefined) appendFileSync(workerTimingsPath(process.ppid), `${JSON.stringify({ file, ...time })}\n`);
  },
};

function fileOfRun(context: Context): string | undefined {
  const file = context.test?.parent?.suites.find((suite) => suite.file !== undefined)?.file;
  return file === undefined ? undefined : relative(process.cwd(), file);
}

/** Adds the times the workers of a --parallel run wrote; true when there were any. */
export function readWorkerTimings(timer: FileTimer, path: string): boolean {
  if (!existsSync(path)) return false;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const { file, ...time } = JSON.parse(line) as FileTime & { file: string };
    timer.record(file, time);
  }
  rmSync(path, { force: true });
  return true;
}

export function mochaGlobalTeardown(): void {
  // Loading is timed only when one process loads every file before running them.
  if (readWorkerTimings(run, workerTimingsPath(process.pid))) loadSeconds = undefined;
  const file = process.env.LIB_TEST_TIMINGS_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  if (run.spent.size > 1 && process.env.LIB_TEST_TIMINGS !== "off") {
    const wall = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(`\n${run.slowest(SHOWN, loadSeconds)}\n  wall time of the run: ${wall} s\n`);
  }
}
