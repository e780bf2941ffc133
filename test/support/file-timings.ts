/**
 * Mocha root-hook plugin (`require` in .mocharc.json): measures how long each test file runs and prints
 * the slowest ten after the run, so a slow suite is visible the day it lands. A file's time runs from its
 * first top-level suite starting to its last one ending (its hooks included); loading every file
 * (transpiling and importing) happens before that and is printed as one line.
 * `LIB_TEST_TIMINGS=off` prints nothing; `LIB_TEST_TIMINGS_FILE=<path>` also writes every file's wall and
 * CPU seconds as JSON (CPU time of the mocha process: comparable across runs on a busy machine).
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Runner, Suite } from "mocha";

const SHOWN = 10;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1).padStart(6)} s`;
}

/** Per-file times from a runner's suite events. */
export class FileTimer {
  readonly spent = new Map<string, number>();
  /** CPU time of this process per file (ms): unlike wall time, barely moved by other load on the machine. */
  readonly cpu = new Map<string, number>();
  readonly #opened = new Map<string, { wall: number; cpu: number }>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly root: string = process.cwd(),
    private readonly cpuNow: () => number = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
  ) {}

  #fileOf(suite: Suite): string | undefined {
    return suite.parent?.root && suite.file ? relative(this.root, suite.file) : undefined;
  }

  listen(runner: { on(event: "suite" | "suite end", listener: (suite: Suite) => void): unknown }): void {
    runner.on("suite", (suite: Suite) => {
      const file = this.#fileOf(suite);
      if (file !== undefined && !this.#opened.has(file))
        this.#opened.set(file, { wall: this.now(), cpu: this.cpuNow() });
    });
    runner.on("suite end", (suite: Suite) => {
      const file = this.#fileOf(suite);
      const began = file === undefined ? undefined : this.#opened.get(file);
      if (file === undefined || began === undefined) return;
      this.spent.set(file, this.now() - began.wall);
      this.cpu.set(file, this.cpuNow() - began.cpu);
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

  /** Every file's wall and CPU seconds, slowest first. */
  toJSON(): Record<string, { wall: number; cpu: number }> {
    const s = (ms: number | undefined): number => Math.round(ms ?? 0) / 1000;
    return Object.fromEntries(
      [...this.spent]
        .sort((a, b) => b[1] - a[1])
        .map(([file, ms]) => [file, { wall: s(ms), cpu: s(this.cpu.get(file)) }]),
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
