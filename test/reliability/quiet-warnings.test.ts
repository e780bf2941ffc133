/**
 * The tests that provoke lib's process warnings on purpose (an unhonoured backend B field, a cursor
 * garbage-collected unclosed) capture and assert them (`test/support/warnings.ts`): run on their
 * own, as `npm test` runs them, they print no warning into the test output.
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../codegen/support/run-cli.js";

const PROVOKING = ["test/databricks/unhonoured-fields.test.ts", "test/reliability/unclosed-cursor.test.ts"];

describe("reliability: warnings the tests provoke are captured, not printed", function () {
  this.timeout(120_000);

  it("the unhonoured-field and unclosed-cursor tests pass and print no lib warning", async () => {
    const mocha = join(REPO_ROOT, "node_modules", "mocha", "bin", "mocha.js");
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [mocha, "--reporter", "dot", ...PROVOKING],
        { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1", LIB_TEST_TIMINGS: "off" } },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, output: stdout + stderr }),
      );
    });
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.match(/\d+ passing/);
    expect(result.output).to.not.match(/\[LIB_[A-Z_]+\]|Warning:/);
  });
});
