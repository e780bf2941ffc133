/**
 * Mocha root-hook plugin (`require` in .mocharc.json): measures how long each test file runs and prints
 * the slowest ten after the run, so a slow suite is visible the day it lands. A file's time runs from its
 * first top-level suite starting to its last one ending (its hooks included); loading every file
 * (transpiling and importing) happens before that and is printed as one line.
 * `LIB_TEST_TIMINGS=off` prints nothing; `LIB_TEST_TIMINGS_FILE=<path>` also writes every file's wall and
 * CPU seconds as JSON: `cpu` is the mocha process's own, `children` the CPU of the child processes it
 * reaped meanwhile (npm, tsc, the lib binary; Linux only). Unlike wall time, both are barely moved by
 * other load on the machine, so runs compare.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Runner, Suite } from "mocha";

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

/** Per-file times from a runner's suite events. */
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

  listen(runner: { on(event: "suite" | "suite end", listener: (suite: Suite) => void): unknown }): void {
    runner.on("suite", (suite: Suite) => {
      const file = this.#fileOf(suite);
      if (file !== undefined && !this.#opened.has(file))
        this.#opened.set(file, { wall: this.now(), cpu: this.cpuNow(), children: this.childrenNow() });
    });
    runner.on("suite end", (suite: Suite) => {
      const file = this.#fileOf(suite);
      const began = file === undefined ? undefined : this.#opened.get(file);
      if (file === undefined || began === undefined) return;
      this.spent.set(file, this.now() - began.wall);
      this.cpu.set(file, this.cpuNow() - began.cpu);
      this.children.set(file, this.childrenNow() - began.children);
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
let loadSeconds = 0;

/** Global setup runs with the runner as `this`: listen to its suite events. */
export function mochaGlobalSetup(this: Runner): void {
  loadSeconds = process.uptime();
  run.listen(this);
  startedAt = performance.now();
}

export function mochaGlobalTeardown(): void {
  const file = process.env.LIB_TEST_TIMINGS_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  if (run.spent.size > 1 && process.env.LIB_TEST_TIMINGS !== "off") {
    const wall = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(`\n${run.slowest(SHOWN, loadSeconds)}\n  wall time of the run: ${wall} s\n`);
  }
}
