/**
 * The test run reports its slowest files (test/support/file-timings.ts, a mocha root-hook plugin
 * that .mocharc.json requires), so a slow suite is visible the day it lands.
 */
import { expect } from "chai";
import { EventEmitter } from "node:events";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Suite } from "mocha";
import { childrenCpu, FileTimer, readWorkerTimings } from "../support/file-timings.js";
import { plainJs } from "../support/plain-js.js";
import { useTempDir } from "../support/temp-dir.js";
import { REPO_ROOT } from "./support/source-graph.js";

const root = { root: true } as Suite;
const PLUGIN = "test/support/file-timings.ts";
const suite = (file: string): Suite => ({ parent: root, file: join(REPO_ROOT, file) }) as Suite;

describe("architecture: the test run reports its slowest files", () => {
  const tmp = useTempDir();

  it("times each file from its first top-level suite to its last, and lists the slowest first", () => {
    let clock = 0;
    const timer = new FileTimer(
      () => clock,
      REPO_ROOT,
      () => clock / 2,
      () => clock / 4,
    );
    const runner = new EventEmitter();
    timer.listen(runner);
    const [a1, a2, b] = [suite("test/a.test.ts"), suite("test/a.test.ts"), suite("test/b.test.ts")];
    const nested = { parent: a1, file: a1.file } as Suite;
    runner.emit("suite", a1);
    runner.emit("suite", nested);
    clock = 1000;
    runner.emit("suite end", nested);
    runner.emit("suite end", a1);
    runner.emit("suite", a2);
    clock = 4000;
    runner.emit("suite end", a2);
    runner.emit("suite", b);
    clock = 9500;
    runner.emit("suite end", b);
    expect(timer.toJSON()).to.deep.equal({
      "test/b.test.ts": { wall: 5.5, cpu: 2.75, children: 1.375 },
      "test/a.test.ts": { wall: 4, cpu: 2, children: 1 },
    });
    expect(timer.slowest(1, 2)).to.equal(
      [
        "Slowest 1 of 2 test files:",
        "     5.5 s  test/b.test.ts",
        "     9.5 s  all files (plus 2.0 s loading them)",
      ].join("\n"),
    );
  });

  it("reads the reaped children's CPU from /proc/self/stat (fields 16 and 17, in clock ticks)", () => {
    const stat = "4242 (node (mocha)) S 1 4242 4242 0 -1 4194304 100 200 0 0 350 40 120 30 20 0 11 0";
    expect(childrenCpu(() => stat)).to.equal(1500);
    expect(
      childrenCpu(() => {
        throw new Error("no /proc here");
      }),
    ).to.equal(0);
    if (process.platform === "linux") expect(childrenCpu()).to.be.a("number").and.at.least(0);
  });

  it("merges the times --parallel workers wrote, then removes their file", () => {
    const timer = new FileTimer();
    const path = join(tmp.path, "timings.jsonl");
    expect(readWorkerTimings(timer, path)).to.equal(false);
    writeFileSync(
      path,
      `${JSON.stringify({ file: "test/a.test.ts", wall: 1500, cpu: 700, children: 0 })}\n` +
        `${JSON.stringify({ file: "test/b.test.ts", wall: 2500, cpu: 300, children: 1200 })}\n`,
    );
    expect(readWorkerTimings(timer, path)).to.equal(true);
    expect(timer.toJSON()).to.deep.equal({
      "test/b.test.ts": { wall: 2.5, cpu: 0.3, children: 1.2 },
      "test/a.test.ts": { wall: 1.5, cpu: 0.7, children: 0 },
    });
    expect(existsSync(path)).to.equal(false);
  });

  it("under mocha --parallel (npm test), each worker's files are timed and the main process prints them", async function () {
    this.timeout(120_000);
    for (const name of ["one", "two"]) {
      writeFileSync(
        join(tmp.path, `${name}.test.mjs`),
        `describe("${name}", () => { it("waits", () => new Promise((resolve) => setTimeout(resolve, 300))); });\n`,
      );
    }
    const json = join(tmp.path, "timings.json");
    const mocha = join(REPO_ROOT, "node_modules", "mocha", "bin", "mocha.js");
    // The plugin as plain JavaScript (test/support/plain-js.ts): three processes without tsx's loader.
    const plugin = plainJs([PLUGIN]).path(PLUGIN);
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [mocha, "--no-config", "--parallel", "--jobs", "2", "--require", plugin, "one.test.mjs", "two.test.mjs"],
        { cwd: tmp.path, env: { ...process.env, LIB_TEST_TIMINGS_FILE: json } },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(output).to.contain("Slowest 2 of 2 test files:").and.contain("one.test.mjs").and.contain("two.test.mjs");
    const times = JSON.parse(readFileSync(json, "utf8")) as Record<string, { wall: number }>;
    expect(Object.keys(times).sort()).to.deep.equal(["one.test.mjs", "two.test.mjs"]);
    for (const time of Object.values(times)) expect(time.wall).to.be.at.least(0.3);
  });

  it("is required by .mocharc.json, so npm test prints the table", () => {
    const config = JSON.parse(readFileSync(join(REPO_ROOT, ".mocharc.json"), "utf8")) as { require?: string[] };
    expect(config.require).to.include("test/support/file-timings.ts");
  });
});
