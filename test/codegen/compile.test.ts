/** Generated modules compile under the repository's strict settings, and their types infer rows. */
import { expect } from "chai";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generate } from "../../codegen/emit/generate.js";
import { tempDir } from "../support/temp-dir.js";
import { REVENUE_BY_COUNTRY, SALES_VIEW } from "./support/sales-metadata.js";
import { SALES_USAGE, typecheck } from "./support/typecheck.js";

/**
 * The facts DTO (`<View>Facts`, what the request core types facts by) has the types the class declares:
 * `unknown` (a fact left untyped) fails both equalities.
 */
const FACTS_USAGE = `import type { Decimal, RowOf } from "lib";
import type { Static } from "typebox";
import { OrderFacts, OrderFactsFacts, OrderFactsRow } from "./index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expand<T> = { [K in keyof T]: T[K] };

const facts = OrderFacts.query().facts(OrderFacts.unit_price, OrderFacts.net, OrderFacts.shipped_at);
export const asQueried: Equal<Static<typeof OrderFactsFacts>, Expand<RowOf<typeof facts>>> = true;
export const exact: Equal<Static<typeof OrderFactsFacts>, { unit_price: number; net: Decimal; shipped_at: Date }> = true;
// @ts-expect-error the row DTO leaves the facts out (they are never selected with dimensions or metrics)
export const inRow: keyof Static<typeof OrderFactsRow> = "unit_price";
`;

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
            { name: "net", kind: "fact", type: "DECIMAL(12,2)" },
            { name: "shipped_at", kind: "fact", type: "TIMESTAMP" },
            { name: "misc", kind: "dimension", type: "STRUCT(a INTEGER)" },
          ],
        },
      ],
      { backend: "backend_c", dtos: [REVENUE_BY_COUNTRY] },
    );
    for (const file of files) await writeFile(join(dir.path, file.path), file.text);
    await writeFile(join(dir.path, "usage.ts"), SALES_USAGE);
    await writeFile(join(dir.path, "facts-usage.ts"), FACTS_USAGE);
    const result = await typecheck(dir.path, [...files.map((f) => f.path), "usage.ts", "facts-usage.ts"]);
    expect(result.output).to.equal("");
    expect(result.code).to.equal(0);
  });
});
