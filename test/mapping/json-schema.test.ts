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
        at: DateType({ title: "At" }),
        day: DateType({ format: "date", title: "Day" }),
        note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      },
      { title: "Report" },
    );
    expect(toJsonSchema(Model)).to.deep.equal({
      type: "object",
      required: ["country", "revenue", "total", "count", "big", "at", "day"],
      properties: {
        country: { type: "string", title: "Country" },
        revenue: { type: "integer", title: "Revenue" },
        total: { type: "number", title: "Total", description: "money", "x-lib-type": "decimal" },
        count: { type: "integer", minimum: 0, format: "int64" },
        big: { type: "integer", format: "int64" },
        at: { type: "string", format: "date-time", title: "At" },
        day: { type: "string", format: "date", title: "Day" },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      title: "Report",
    });
  });

  it('DateType({ format: "date" }) accepts calendar days only (midnight UTC, as DATE values arrive)', async () => {
    const { Value } = await import("typebox/value");
    const day = DateType({ format: "date" });
    expect(Value.Check(day, new Date("2024-02-29T00:00:00Z"))).to.equal(true);
    expect(Value.Check(day, new Date("2024-02-29T12:00:00Z"))).to.equal(false);
    expect(Value.Check(DateType(), new Date("2024-02-29T12:00:00Z"))).to.equal(true);
    expect(() => DateType({ format: "time" as "date" })).to.throw(TypeError, /"date" or "date-time", got "time"/);
  });
});
