import { expect } from "chai";
import { fileStem, isIdentifier, pascalCase, titleOf, uniqueNames } from "../../codegen/emit/naming.js";

describe("codegen naming", () => {
  it("derives PascalCase class names from view names", () => {
    expect(pascalCase("sales")).to.equal("Sales");
    expect(pascalCase("SALES")).to.equal("Sales");
    expect(pascalCase("order_facts")).to.equal("OrderFacts");
    expect(pascalCase("orderFacts")).to.equal("OrderFacts");
    expect(pascalCase("analytics.sales")).to.equal("AnalyticsSales");
    expect(pascalCase("2024 kpis")).to.equal("View2024Kpis");
    expect(pascalCase("metric")).to.equal("MetricView");
    expect(pascalCase("semantic_view")).to.equal("SemanticViewView");
    expect(pascalCase("---")).to.equal("View");
  });

  it("derives kebab-case file stems, never index", () => {
    expect(fileStem("sales")).to.equal("sales");
    expect(fileStem("Order_Facts")).to.equal("order-facts");
    expect(fileStem("index")).to.equal("view-index");
  });

  it("titles fields like capitalized words", () => {
    expect(titleOf("country")).to.equal("Country");
    expect(titleOf("order_month")).to.equal("Order Month");
    expect(titleOf("revenue")).to.equal("Revenue");
  });

  it("suffixes collisions, case-insensitively", () => {
    expect(uniqueNames(["Sales", "Sales", "sales", "Cost"])).to.deep.equal(["Sales", "Sales2", "sales3", "Cost"]);
  });

  it("knows identifiers and reserved words", () => {
    expect(isIdentifier("RevenueByCountry")).to.equal(true);
    expect(isIdentifier("class")).to.equal(false);
    expect(isIdentifier("2x")).to.equal(false);
  });
});
