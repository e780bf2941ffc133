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
const spent = new Map<string, number>();
let startedAt = 0;
let loadSeconds = 0;

function fileOf(suite: Suite): string | undefined {
  return suite.parent?.root && suite.file ? relative(process.cwd(), suite.file) : undefined;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1).padStart(6)} s`;
}

/** The table printed after the run: the `count` slowest files, then the whole run. */
export function slowestFiles(times: ReadonlyMap<string, number>, count = SHOWN): string {
  const rows = [...times].sort((a, b) => b[1] - a[1]).slice(0, count);
  const total = [...times.values()].reduce((sum, ms) => sum + ms, 0);
  return [
    `Slowest ${rows.length} of ${times.size} test files:`,
    ...rows.map(([file, ms]) => `  ${seconds(ms)}  ${file}`),
    `  ${seconds(total)}  all files (plus ${loadSeconds.toFixed(1)} s loading them)`,
  ].join("\n");
}

/** Global setup runs with the runner as `this`: listen to its suite events. */
export function mochaGlobalSetup(this: Runner): void {
  loadSeconds = process.uptime();
  const opened = new Map<string, number>();
  this.on("suite", (suite: Suite) => {
    const file = fileOf(suite);
    if (file !== undefined && !opened.has(file)) opened.set(file, performance.now());
  });
  this.on("suite end", (suite: Suite) => {
    const file = fileOf(suite);
    const began = file === undefined ? undefined : opened.get(file);
    if (file !== undefined && began !== undefined) spent.set(file, performance.now() - began);
  });
  startedAt = performance.now();
}

export function mochaGlobalTeardown(): void {
  const file = process.env.LIB_TEST_TIMINGS_FILE;
  if (file) {
    const rows = [...spent].sort((a, b) => b[1] - a[1]).map(([name, ms]) => [name, Math.round(ms) / 1000]);
    writeFileSync(file, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
  }
  if (spent.size > 1 && process.env.LIB_TEST_TIMINGS !== "off") {
    const wall = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(`\n${slowestFiles(spent)}\n  wall time of the run: ${wall} s\n`);
  }
}
