/**
 * The package test's npm runs (support/package-installs.ts): when one fails, its error says why,
 * even when npm itself printed nothing (a full run once failed with "npm install git+file… exited 1"
 * and empty stdout and stderr, which left nothing to go on).
 */
import { expect } from "chai";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempDir } from "../support/temp-dir.js";
import { must, npm } from "./support/package-installs.js";

describe("package test: a failing npm command explains itself", () => {
  const dir = useTempDir();

  it("holds npm's stdout and stderr and the end of its own debug log, even when npm printed nothing", async () => {
    writeFileSync(join(dir.path, "package.json"), JSON.stringify({ name: "app", private: true }));
    const failed = await npm(["install", "--offline", "git+file:///nonexistent/lib"], dir.path, dir.path, {
      npm_config_loglevel: "silent", // prints nothing at all, as in the failure this is about
    }).then(
      () => expect.fail("the install succeeded"),
      (error: unknown) => (error as Error).message,
    );
    expect(failed).to.match(/^npm install git\+file:\/\/\/nonexistent\/lib exited [1-9]\d*\n/);
    expect(failed).to.contain("--- stdout (empty)").and.contain("--- stderr (empty)");
    expect(failed).to.match(/--- npm debug log \S+-debug-0\.log \(last \d+ of \d+ lines\):/);
    expect(failed).to.contain("does not appear to be a git repository");
  });

  it("says when a command was stopped at its time limit, or by a signal, and keeps its output", () => {
    // npm handles the SIGTERM itself and exits 1 without a word: only the time limit explains it.
    const late = { code: 1, timedOut: true, signal: null, stdout: "", stderr: "" };
    expect(() => must(late, "npm install git+file:///x")).to.throw(
      "npm install git+file:///x was stopped after its 20-minute limit (exit 1)\n--- stdout (empty)\n--- stderr (empty)",
    );
    const killed = { code: -1, signal: "SIGTERM", stdout: "", stderr: "halfway\n" } as const;
    expect(() => must(killed, "npm pack")).to.throw(
      "npm pack was killed by SIGTERM\n--- stdout (empty)\n--- stderr:\nhalfway",
    );
    const ok = { code: 0, signal: null, stdout: "done", stderr: "" };
    expect(must(ok, "npm pack")).to.equal(ok);
  });
});
