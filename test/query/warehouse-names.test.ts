/**
 * Members declared with their warehouse name (`Dimension({ name: "customer.name" })`,
 * `Metric({ name: "Total Revenue" })`): every dialect refers to the warehouse name, quoted (and on
 * backend A qualified) as that dialect needs, while rows still key by the field name.
 */
import { expect } from "chai";
import { Dimension, Metric, SemanticView, ValidationError } from "lib";
import { expectSql } from "./support/golden.js";

class Parties extends SemanticView("parties", {
  customerName: Dimension<string>({ name: "customer.name" }),
  supplierName: Dimension<string>({ name: "supplier.name" }),
  totalRevenue: Metric<bigint>({ name: "Total Revenue" }),
  orderCount: Metric<bigint>(),
}) {}

describe("query compilers: members declared with a warehouse name", () => {
  it("the field keeps its name; warehouseName is the declared one (the field name by default)", () => {
    expect(Parties.customerName.name).to.equal("customerName");
    expect(Parties.customerName.warehouseName).to.equal("customer.name");
    expect(Parties.orderCount.warehouseName).to.equal("orderCount");
  });

  it("select, filter and order: qualified on A, one quoted identifier on B and C, aliased to the field name", () => {
    const query = Parties.query()
      .dimensions(Parties.customerName, Parties.supplierName)
      .metrics(Parties.totalRevenue)
      .where(Parties.customerName.eq("Ann"))
      .orderBy(Parties.totalRevenue.desc());
    expectSql(query, {
      backend_a: {
        sql:
          'SELECT * FROM SEMANTIC_VIEW("PARTIES" DIMENSIONS "CUSTOMER"."NAME" AS "customerName", "SUPPLIER"."NAME" AS "supplierName" ' +
          'METRICS "Total Revenue" AS "totalRevenue" WHERE "CUSTOMER"."NAME" = ?) ORDER BY "totalRevenue" DESC NULLS LAST',
        parameters: ["Ann"],
      },
      backend_b: {
        sql:
          "SELECT `customer.name` AS `customerName`, `supplier.name` AS `supplierName`, MEASURE(`Total Revenue`) AS `totalRevenue` " +
          "FROM `parties` WHERE `customer.name` = ? GROUP BY ALL ORDER BY `totalRevenue` DESC NULLS LAST",
        parameters: ["Ann"],
      },
      backend_c:
        `SELECT "customer.name" AS "customerName", "supplier.name" AS "supplierName", "Total Revenue" AS "totalRevenue" ` +
        `FROM semantic_view('parties', dimensions := ['"customer.name"', '"supplier.name"'], metrics := ['"Total Revenue"'], ` +
        `where_clause := '"customer.name" = ''Ann''') ORDER BY "totalRevenue" DESC NULLS LAST`,
    });
  });

  it("quote characters in a warehouse name are escaped per dialect, never closing the identifier", () => {
    class Odd extends SemanticView("odd", { tricky: Dimension<string>({ name: "A\"b`c'd" }) }) {}
    expectSql(Odd.query().dimensions(Odd.tricky), {
      backend_a: { sql: 'SELECT * FROM SEMANTIC_VIEW("ODD" DIMENSIONS "A""b`c\'d" AS "tricky")' },
      backend_b: { sql: "SELECT `A\"b``c'd` AS `tricky` FROM `odd` GROUP BY ALL" },
      backend_c: 'SELECT "A""b`c\'d" AS "tricky" FROM semantic_view(\'odd\', dimensions := [\'"A""b`c\'\'d"\'])',
    });
  });

  it("an empty warehouse name is a ValidationError naming the option", () => {
    expect(() => Dimension({ name: " " })).to.throw(
      ValidationError,
      /Dimension\(\{ name \}\): name must be a non-empty string/,
    );
  });
});
