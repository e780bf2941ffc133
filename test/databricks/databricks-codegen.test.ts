/**
 * `lib codegen --backend backend_b` against the stand-in: the backend B introspector lists the
 * metric views (`information_schema.tables`) and reads `DESCRIBE TABLE EXTENDED ... AS JSON`
 * through the real driver, and the generated view class carries value types from the warehouse's
 * column types (BIGINT → bigint, DECIMAL(38,2) → Decimal).
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { runCodegen } from "../../codegen/codegen.js";
import { TOKEN, standInTomlLines, useStandIn } from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";

describe("backend B: codegen introspection through the driver", function () {
  this.timeout(20_000);
  const fixture = useStandIn();
  const tmp = useTempDir();

  async function codegen(token: string) {
    await writeFile(join(tmp.path, ".lib.toml"), [...standInTomlLines(fixture.standIn, token), ""].join("\n"));
    const out: string[] = [];
    const err: string[] = [];
    const exit = await runCodegen(
      { backend: "backend_b" },
      { cwd: tmp.path, env: {}, stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
    );
    return { exit, out, err };
  }

  it("generates the fixture's views with types from the metric views' columns", async () => {
    const { exit, err } = await codegen(TOKEN);
    expect(err.join("\n")).to.equal("");
    expect(exit).to.equal(0);
    const files = await readdir(join(tmp.path, "generated"));
    expect(files).to.include.members(["sales.ts", "sales.dto.ts", "orders.ts", "orders.dto.ts", "index.ts"]);
    const source = await readFile(join(tmp.path, "generated", "sales.ts"), "utf8");
    expect(source).to.match(/SemanticView\("sales"/);
    expect(source).to.match(/revenue: Metric<bigint>\(\)/);
    expect(source).to.match(/country: Dimension<string(?: \| null)?>\(\)/);
    const dto = await readFile(join(tmp.path, "generated", "sales.dto.ts"), "utf8");
    expect(dto).to.match(/revenue: BigIntType\(/); // a 64-bit SUM: bigint, exact
    const orders = await readFile(join(tmp.path, "generated", "orders.ts"), "utf8");
    expect(orders).to.match(/total: Metric<Decimal>\(\)/);
    const ordersDto = await readFile(join(tmp.path, "generated", "orders.dto.ts"), "utf8");
    expect(ordersDto).to.match(/total: DecimalType\(/);
  });

  it("a wrong token: connection exit status, token not printed", async () => {
    const wrong = "dapi-codegen-wrong-77aa";
    const { exit, err } = await codegen(wrong);
    expect(exit).to.not.equal(0);
    expect(err.join("\n")).to.not.include(wrong);
    expect(err.join("\n")).to.match(/backend_b|connect/i);
  });
});
