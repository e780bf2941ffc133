/**
 * Mistakes users make with `lib codegen` fail loudly (exit 2) with a hint, instead of silently
 * succeeding: a missing --database file (never created), a missing explicit --config file, unknown
 * keys in the [codegen] tables, and mistyped flags.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createDatabase, SALES_DDL } from "./support/databases.js";
import { runLib } from "./support/run-cli.js";
import { tempDir } from "../support/temp-dir.js";

describe("lib codegen CLI: user mistakes exit 2 with a hint", function () {
  this.timeout(120_000);

  it("--database on a file that does not exist exits 2 naming the path, and creates nothing", async () => {
    await using dir = await tempDir();
    const result = await runLib(["codegen", "--backend", "backend_c", "--database", "typo.duckdb"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain(join(dir.path, "typo.duckdb")).and.contain("does not exist");
    expect(existsSync(join(dir.path, "typo.duckdb"))).to.equal(false);
    expect(existsSync(join(dir.path, "generated"))).to.equal(false);
  });

  it("an explicit --config file that does not exist exits 2 (the implicit .lib.toml stays optional)", async () => {
    await using dir = await tempDir();
    const database = await createDatabase(dir.path, "sales.duckdb", SALES_DDL);
    const missing = await runLib(
      ["codegen", "--backend", "backend_c", "--database", database, "--config", "conf/lib.toml"],
      { cwd: dir.path },
    );
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain(join(dir.path, "conf/lib.toml")).and.contain("does not exist");
    const implicit = await runLib(["codegen", "--backend", "backend_c", "--database", database], { cwd: dir.path });
    expect(implicit.code, implicit.stderr).to.equal(0);
  });

  it("unknown keys in [codegen] and [codegen.dtos.<Name>] exit 2 with did-you-mean", async () => {
    await using dir = await tempDir({
      "dto.toml": '[codegen.dto.RevenueByCountry]\nview = "sales"\nfields = ["country"]\n',
      "field.toml": '[codegen.dtos.RevenueByCountry]\nview = "sales"\nfeilds = ["country"]\n',
    });
    const database = await createDatabase(dir.path, "sales.duckdb", SALES_DDL);
    const table = await runLib(["codegen", "--backend", "backend_c", "--database", database, "--config", "dto.toml"], {
      cwd: dir.path,
    });
    expect(table.code).to.equal(2);
    expect(table.stderr).to.contain("[codegen] has no key dto").and.contain("did you mean codegen.dtos?");
    const field = await runLib(
      ["codegen", "--backend", "backend_c", "--database", database, "--config", "field.toml"],
      { cwd: dir.path },
    );
    expect(field.code).to.equal(2);
    expect(field.stderr).to.contain("unknown field feilds").and.contain("did you mean fields?");
    expect(existsSync(join(dir.path, "generated"))).to.equal(false);
  });

  it("a mistyped flag exits 2 and suggests the closest flag", async () => {
    await using dir = await tempDir();
    const result = await runLib(["codegen", "--backend", "backend_c", "--databse", "x.duckdb"], { cwd: dir.path });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain("--databse").and.contain("did you mean --database?");
  });
});
