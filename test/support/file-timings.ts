/**
 * Mocha root-hook plugin (`require` in .mocharc.json): measures how long each test file runs and prints
 * the slowest ten after the run, so a slow suite is visible the day it lands. A file's time runs from its
 * first top-level suite starting to its last one ending (its hooks included); loading every file
 * (transpiling and importing) happens before that and is printed as one line.
 * `LIB_TEST_TIMINGS=off` prints nothing; `LIB_TEST_TIMINGS_FILE=<path>` also writes every file's seconds as JSON.
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
  readonly #opened = new Map<string, number>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly root: string = process.cwd(),
  ) {}

  #fileOf(suite: Suite): string | undefined {
    return suite.parent?.root && suite.file ? relative(this.root, suite.file) : undefined;
  }

  listen(runner: { on(event: "suite" | "suite end", listener: (suite: Suite) => void): unknown }): void {
    runner.on("suite", (suite: Suite) => {
      const file = this.#fileOf(suite);
      if (file !== undefined && !this.#opened.has(file)) this.#opened.set(file, this.now());
    });
    runner.on("suite end", (suite: Suite) => {
      const file = this.#fileOf(suite);
      const began = file === undefined ? undefined : this.#opened.get(file);
      if (file !== undefined && began !== undefined) this.spent.set(file, this.now() - began);
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

  /** Every file's seconds, slowest first. */
  toJSON(): Record<string, number> {
    return Object.fromEntries(
      [...this.spent].sort((a, b) => b[1] - a[1]).map(([file, ms]) => [file, Math.round(ms) / 1000]),
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
