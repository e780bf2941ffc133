/**
 * Issue 9 item 9: codegen never writes two exports with one name. Views `sales` and `sales_row`
 * both wanted `SalesRow` (the class of one, the row DTO of the other) and the output did not
 * compile while the CLI exited 0. Hostile view names are generated, every export checked unique,
 * the output type-checked with `tsc`, and the real CLI run on a DuckDB file with the views.
 */
import { expect } from "chai";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DtoConfigError, generate } from "../../codegen/emit/generate.js";
import type { ViewMetadata } from "../../runtime/dialects/introspect/metadata.js";
import { createDatabase, SALES_DDL } from "../codegen/support/databases.js";
import { runLib } from "../codegen/support/run-cli.js";
import { tempDir } from "../support/temp-dir.js";
import { typecheck } from "../codegen/support/typecheck.js";

/** Names that fold onto each other (case, separators, dots, suffixes) or onto names the modules import. */
const HOSTILE = [
  "sales",
  "sales_row",
  "SALES",
  "Sales",
  "sales.row",
  "SalesRow",
  "sales_2",
  "sales2",
  "sales_row_row",
  "fact",
  "type",
  "decimal_type",
  "date_type",
  "big_int_type",
  "lib_type",
  "object",
  "date",
  "index",
  "index_row",
  "semantic_view",
  "metric",
  "dimension",
  "a.b",
  "a_b",
  "row",
  "_",
  "__proto__",
  "constructor",
  "prototype",
  "default",
  "v2024.kpis",
];

function view(name: string): ViewMetadata {
  return {
    name,
    members: [
      { name: "country", kind: "dimension", type: "VARCHAR" },
      { name: "placed_on", kind: "dimension", type: "DATE" },
      { name: "revenue", kind: "metric", type: "HUGEINT" },
      { name: "amount", kind: "metric", type: "DECIMAL(12,2)" },
      { name: "price", kind: "fact", type: "DOUBLE" },
    ],
  };
}

/** Every `export class X` / `export const X` across the generated modules. */
function exportsOf(files: readonly { path: string; text: string }[]): string[] {
  return files.flatMap((f) => [...f.text.matchAll(/^export (?:class|const) (\w+)/gm)].map((m) => m[1]!));
}

describe("reliability: codegen export collisions", function () {
  this.timeout(180_000);

  it("gives every export of hostile view names its own name, deterministically, and says what it renamed", () => {
    const result = generate(HOSTILE.map(view), { backend: "backend_c" });
    const names = exportsOf(result.files);
    expect(names).to.have.length(HOSTILE.length * 3); // the class, the row DTO, the facts DTO
    expect(new Set(names.map((n) => n.toLowerCase())).size, names.join(", ")).to.equal(names.length);
    const stems = result.files.map((f) => f.path.toLowerCase());
    expect(new Set(stems).size).to.equal(stems.length);
    expect(result.renamed).to.have.length(9);
    // Input order does not matter.
    const shuffled = generate([...HOSTILE].reverse().map(view), { backend: "backend_c" });
    expect(shuffled.files).to.deep.equal(result.files);
  });

  it("the issue's pair: sales_row keeps its class SalesRow, the row DTO of sales becomes SalesRow2", () => {
    const result = generate([view("sales_row"), view("sales")], { backend: "backend_c" });
    expect(exportsOf(result.files)).to.deep.equal([
      "Sales",
      "SalesRow2",
      "SalesFacts",
      "SalesRow",
      "SalesRowRow",
      "SalesRowFacts",
    ]);
    expect(result.renamed).to.deep.equal([
      'the row DTO of view "sales" to SalesRow2 (SalesRow is the class of view "sales_row")',
    ]);
  });

  it("the facts DTO steps aside too: sales_facts keeps its class SalesFacts, the facts DTO of sales becomes SalesFacts2", () => {
    const result = generate([view("sales_facts"), view("sales")], { backend: "backend_c" });
    expect(exportsOf(result.files)).to.include.members(["SalesFacts", "SalesFacts2", "SalesFactsFacts"]);
    expect(result.renamed).to.deep.equal([
      'the facts DTO of view "sales" to SalesFacts2 (SalesFacts is the class of view "sales_facts")',
    ]);
  });

  it("refuses a configured DTO name that another export or an import has, naming both (exit 2 in the CLI)", () => {
    const views = [view("sales"), view("sales_row")];
    const attempt = (name: string) => () =>
      generate(views, { backend: "backend_c", dtos: [{ name, view: "sales", fields: ["country"] }] });
    expect(attempt("SalesRow")).to.throw(
      DtoConfigError,
      'DTO name "SalesRow" is already used by the class of view "sales_row"',
    );
    expect(attempt("salesrowrow")).to.throw(DtoConfigError, 'is already used by the row DTO of view "sales_row"');
    expect(attempt("DecimalType")).to.throw(DtoConfigError, "is a name generated modules import");
    expect(attempt("Type")).to.throw(DtoConfigError, "is a name generated modules import");
  });

  it("type-checks the output generated from hostile names, each export reachable from the index", async () => {
    await using dir = await tempDir();
    const { files } = generate(HOSTILE.map(view), { backend: "backend_c" });
    for (const file of files) await writeFile(join(dir.path, file.path), file.text);
    const names = exportsOf(files);
    await writeFile(
      join(dir.path, "usage.ts"),
      `import { ${names.join(", ")} } from "./index.js";\nexport const all: unknown[] = [${names.join(", ")}];\n`,
    );
    const result = await typecheck(dir.path, [...files.map((f) => f.path), "usage.ts"]);
    expect(result.output).to.equal("");
    expect(result.code).to.equal(0);
  });

  it("the CLI on a DuckDB file with views sales and sales_row writes distinct exports and warns about the rename", async () => {
    await using dir = await tempDir();
    const database = await createDatabase(dir.path, "collide.duckdb", [
      ...SALES_DDL,
      `CREATE SEMANTIC VIEW sales_row AS TABLES (sales_data) DIMENSIONS (sales_data.country AS sales_data.country) METRICS (sales_data.revenue AS SUM(sales_data.revenue))`,
    ]);
    const result = await runLib(["codegen", "--backend", "backend_c", "--database", database], { cwd: dir.path });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.contain(
      'warning: renamed the row DTO of view "sales" to SalesRow2 (SalesRow is the class of view "sales_row")',
    );
    const index = await readFile(join(dir.path, "generated", "index.ts"), "utf8");
    const modules = [...index.matchAll(/"\.\/(.+?)\.js"/g)].map((m) => m[1]!);
    const texts = await Promise.all(
      modules.map(async (m) => ({ path: m, text: await readFile(join(dir.path, "generated", `${m}.ts`), "utf8") })),
    );
    expect(exportsOf(texts).sort()).to.deep.equal(["Sales", "SalesRow", "SalesRow2", "SalesRowRow"]);
  });
});
