/**
 * A small fixture module as `lib codegen --fixture` renders it (render-fixture.ts), written to a
 * file for the lib/testing tests: a `sales` table with money and a semantic view over it.
 */
import { writeFileSync } from "node:fs";
import { renderFixture } from "../../../codegen/fixture/render-fixture.js";
import { Decimal } from "../../../runtime/values/decimal.js";

export function writeSmallFixture(path: string): void {
  const model = {
    backend: "backend_c",
    tables: [
      {
        name: "sales",
        origin: "sales",
        columns: [
          { name: "country", type: "VARCHAR" },
          { name: "amount", type: "DECIMAL(10,2)" },
        ],
        rows: [
          ["US", Decimal.parse("19.99")],
          ["US", Decimal.parse("0.01")],
          ["DE", Decimal.parse("5.50")],
        ],
      },
    ],
    views: [
      "CREATE OR REPLACE SEMANTIC VIEW sales_v AS TABLES (s AS sales) DIMENSIONS (s.country AS s.country) METRICS (s.revenue AS SUM(s.amount))",
    ],
    untranslated: [],
  };
  writeFileSync(path, renderFixture(model, { sample: { kind: "all", maxRows: 10 } }));
}
