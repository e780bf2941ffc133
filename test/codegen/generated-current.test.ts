/**
 * The committed generated/ must be what `lib codegen` produces for the demo database today, so a
 * stale generated/ fails CI. Regenerate with (see codegen/demo.lib.toml):
 *   npx tsx scripts/seed-demo.ts /tmp/demo.duckdb
 *   npx tsx codegen/bin.ts codegen --backend backend_c --database /tmp/demo.duckdb --config codegen/demo.lib.toml
 */
import { expect } from "chai";
import { join } from "node:path";
import { seedDemoDatabase } from "../../scripts/seed-demo.js";
import { REPO_ROOT, runLib } from "./support/run-cli.js";
import { tempDir } from "../support/temp-dir.js";

describe("generated/ is current for the demo database", function () {
  this.timeout(120_000);

  it("lib codegen --check exits 0 against the repository's generated/", async () => {
    await using dir = await tempDir();
    const database = join(dir.path, "demo.duckdb");
    await seedDemoDatabase(database);
    const result = await runLib(
      [
        "codegen",
        "--backend",
        "backend_c",
        "--database",
        database,
        "--config",
        join(REPO_ROOT, "codegen", "demo.lib.toml"),
        "--out",
        join(REPO_ROOT, "generated"),
        "--check",
      ],
      { cwd: dir.path },
    );
    expect(result.code, `${result.stdout}${result.stderr}`).to.equal(0);
  });
});
