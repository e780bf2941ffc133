import { expect } from "chai";
import { Type } from "typebox";
import { BigIntType, DateType, DecimalType } from "../../runtime/mapping/schema-types.js";
import { toJsonSchema } from "../../runtime/mapping/json-schema.js";

describe("toJsonSchema: wire schemas for OpenAPI", () => {
  it("rewrites Decimal, bigint and Date schemas to what toJson writes, keeping annotations and order of the rest", () => {
    const Model = Type.Object(
      {
        country: Type.String({ title: "Country" }),
        revenue: Type.Integer({ title: "Revenue" }),
        total: DecimalType({ title: "Total", description: "money" }),
        count: Type.BigInt({ minimum: 0n }),
        big: BigIntType(),
        day: DateType({ title: "Day" }),
        note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      },
      { title: "Report" },
    );
    expect(toJsonSchema(Model)).to.deep.equal({
      type: "object",
      required: ["country", "revenue", "total", "count", "big", "day"],
      properties: {
        country: { type: "string", title: "Country" },
        revenue: { type: "integer", title: "Revenue" },
        total: { type: "number", title: "Total", description: "money", "x-lib-type": "decimal" },
        count: { type: "integer", minimum: 0, format: "int64" },
        big: { type: "integer", format: "int64" },
        day: { type: "string", format: "date-time", title: "Day" },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      title: "Report",
    });
  });
});
