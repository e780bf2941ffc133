/** Generated modules compile under the repository's strict settings, and their types infer rows. */
import { expect } from "chai";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generate } from "../../codegen/emit/generate.js";
import { tempDir } from "../support/temp-dir.js";
import { REVENUE_BY_COUNTRY, SALES_VIEW } from "./support/sales-metadata.js";
import { SALES_USAGE, typecheck } from "./support/typecheck.js";

describe("generated code type-checks", function () {
  this.timeout(180_000);

  it("compiles the sales module, its DTOs and a typed query over them", async () => {
    await using dir = await tempDir();
    const { files } = generate(
      [
        SALES_VIEW,
        {
          name: "order_facts",
          members: [
            { name: "amount", kind: "metric", type: "DECIMAL(38,2)" },
            { name: "placed_on", kind: "dimension", type: "DATE" },
            { name: "unit_price", kind: "fact", type: "DOUBLE" },
            { name: "misc", kind: "dimension", type: "STRUCT(a INTEGER)" },
          ],
        },
      ],
      { backend: "backend_c", dtos: [REVENUE_BY_COUNTRY] },
    );
    for (const file of files) await writeFile(join(dir.path, file.path), file.text);
    await writeFile(join(dir.path, "usage.ts"), SALES_USAGE);
    const result = await typecheck(dir.path, [...files.map((f) => f.path), "usage.ts"]);
    expect(result.output).to.equal("");
    expect(result.code).to.equal(0);
  });
});
