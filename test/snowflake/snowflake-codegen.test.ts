/**
 * `lib codegen --backend backend_a` against the stand-in: SHOW SEMANTIC VIEWS and DESCRIBE SEMANTIC
 * VIEW travel through the real snowflake-sdk, and the generated modules carry the value types of
 * the described members.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { Dimension, Metric, SemanticView } from "lib";
import { runCodegen } from "../../codegen/codegen.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import {
  PASSWORD,
  standInEngine,
  startStandIn,
  standInTomlLines,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";
import { SESSION_SETUP } from "../../runtime/dialects/snowflake/snowflake-driver.js";

describe("codegen for backend A against the stand-in", function () {
  this.timeout(30_000);
  let standIn: SnowflakeStandIn;
  const tmp = useTempDir();

  beforeEach(async () => {
    standIn = await startStandIn();
    await writeFile(
      join(tmp.path, ".lib.toml"),
      [...standInTomlLines(standIn.port, ['database = "ANALYTICS"', 'schema = "PUBLIC"']), ""].join("\n"),
    );
  });
  afterEach(async () => {
    await standIn.close();
  });

  it("generates one module per semantic view with value types from DESCRIBE", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCodegen(
      { backend: "backend_a" },
      { cwd: tmp.path, env: { BACKEND_A_PASSWORD: PASSWORD }, stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
    );
    expect(err.join("\n")).to.equal("");
    expect(status).to.equal(0);
    const statements = standIn.queries.map((q) => q.sqlText);
    expect(statements.filter((sql) => !sql.startsWith("SHOW SEMANTIC DIMENSIONS"))).to.have.members([
      SESSION_SETUP,
      "SHOW SEMANTIC VIEWS IN SCHEMA",
      'DESCRIBE SEMANTIC VIEW "ORDERS"',
      `SELECT GET_DDL('SEMANTIC_VIEW', '"ORDERS"')`,
      'DESCRIBE SEMANTIC VIEW "SALES"',
      `SELECT GET_DDL('SEMANTIC_VIEW', '"SALES"')`,
    ]);
    // One listing per metric: the dimensions it can be grouped by.
    expect(statements).to.include('SHOW SEMANTIC DIMENSIONS IN "SALES" FOR METRIC "REVENUE"');
    const files = await readdir(join(tmp.path, "generated"), { recursive: true });
    const all = (
      await Promise.all(
        files.filter((f) => f.endsWith(".ts")).map((f) => readFile(join(tmp.path, "generated", f), "utf8")),
      )
    ).join("\n");
    // Folded upper-case names are written in lower case; mixed case (orderedOn) stays exact.
    expect(all).to.contain('SemanticView("sales", {');
    expect(all).to.contain("revenue: Metric<bigint>()");
    expect(all).to.contain("country: Dimension<string>()");
    expect(all).to.contain("total: Metric<Decimal>()");
    expect(all).to.contain("orderedOn: Dimension<Date>()");
    expect(all).to.contain("quantity: Fact<number>()");
  });

  it("a view declared the way codegen emits it queries the stand-in", async () => {
    class GeneratedSales extends SemanticView("sales", { country: Dimension<string>(), revenue: Metric<bigint>() }) {}
    await using engine = standInEngine(standIn);
    await using cursor = await GeneratedSales.query()
      .metrics(GeneratedSales.revenue)
      .dimensions(GeneratedSales.country)
      .where(GeneratedSales.country.eq("DE"))
      .using(engine)
      .execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "DE", revenue: 420n }]);
  });
});
