/** Portable generated names: backend A's folding undone, shared members qualified, non-identifiers declared with { name }. */
import { expect } from "chai";
import { generate } from "../../codegen/emit/generate.js";
import { memberNames, portableName } from "../../codegen/emit/portable-names.js";
import type { ViewMetadata } from "../../runtime/dialects/introspect/metadata.js";
import { RESERVED_FIELD_NAMES, validateFieldName } from "../../runtime/view/names.js";

describe("codegen: portable names", () => {
  it("backend A: entirely upper-case names become lower case, mixed case stays exact; other backends keep names", () => {
    expect(portableName("backend_a", "REVENUE")).to.equal("revenue");
    expect(portableName("backend_a", "ORDER_COUNT_2")).to.equal("order_count_2");
    expect(portableName("backend_a", "orderedAt")).to.equal("orderedAt");
    expect(portableName("backend_a", "Total Revenue")).to.equal("Total Revenue");
    expect(portableName("backend_a", "_1")).to.equal("_1");
    expect(portableName("backend_b", "REVENUE")).to.equal("REVENUE");
    expect(portableName("backend_c", "REVENUE")).to.equal("REVENUE");
  });

  it("members several logical tables share are qualified; a lone one is not", () => {
    const names = memberNames("backend_a", [
      { name: "NAME", kind: "dimension", type: "", table: "CUSTOMER" },
      { name: "NAME", kind: "dimension", type: "", table: "SUPPLIER" },
      { name: "REGION", kind: "dimension", type: "", table: "CUSTOMER" },
      { name: "Total Revenue", kind: "metric", type: "", table: "ORDERS" },
    ]);
    expect(names).to.deep.equal([
      { field: "customerName", declared: "customer.name" },
      { field: "supplierName", declared: "supplier.name" },
      { field: "region", declared: undefined },
      { field: "totalRevenue", declared: "Total Revenue" },
    ]);
  });

  it("every field name codegen picks passes SemanticView()'s own rules (runtime/view/names.ts)", () => {
    const awkward = [
      ...RESERVED_FIELD_NAMES,
      "x".repeat(256),
      "y".repeat(300),
      "y".repeat(301),
      "2024 kpis",
      "Total Revenue",
      "ok",
      "hasOwnProperty",
    ];
    const names = memberNames(
      "backend_c",
      awkward.map((name) => ({ name, kind: "dimension" as const, type: "" })),
    );
    for (const { field } of names) expect(() => validateFieldName("v", field), field).to.not.throw();
    expect(names.find((n) => n.declared === "query")?.field).to.equal("queryField");
  });

  it("field names stay unique when a derived name meets an existing one", () => {
    const names = memberNames("backend_b", [
      { name: "total revenue", kind: "metric", type: "" },
      { name: "totalRevenue", kind: "metric", type: "" },
    ]);
    expect(names.map((n) => n.field)).to.deep.equal(["totalRevenue", "totalRevenue2"]);
    expect(names.map((n) => n.declared)).to.deep.equal(["total revenue", "totalRevenue"]);
  });

  it("emits the { name } form instead of skipping or merging, and DTOs key by the field name", () => {
    const view: ViewMetadata = {
      name: "PARTIES",
      members: [
        { name: "NAME", kind: "dimension", type: "VARCHAR(16777216)", table: "CUSTOMER" },
        { name: "NAME", kind: "dimension", type: "VARCHAR(16777216)", table: "SUPPLIER" },
        { name: "Total Revenue", kind: "metric", type: "NUMBER(38,0)", table: "ORDERS" },
      ],
    };
    const result = generate([view], {
      backend: "backend_a",
      dtos: [{ name: "RevenueByCustomer", view: "parties", fields: ["customerName", "totalRevenue"] }],
    });
    const [module, dto] = result.files.map((f) => f.text);
    expect(module).to.contain('export class Parties extends SemanticView("parties", {');
    expect(module).to.contain('  customerName: Dimension<string>({ name: "customer.name" }),');
    expect(module).to.contain('  supplierName: Dimension<string>({ name: "supplier.name" }),');
    expect(module).to.contain('  totalRevenue: Metric<bigint>({ name: "Total Revenue" }),');
    expect(dto).to.contain("export const RevenueByCustomer = Type.Object(");
    expect(dto).to.contain("    customerName: Type.String(");
  });
});
