import { expect } from "chai";
import { tsTypeOf, valueKindOf } from "../../codegen/type-mapping.js";

describe("codegen type mapping", () => {
  const cases: [Parameters<typeof valueKindOf>[0], string, string][] = [
    ["backend_c", "INTEGER", "number"],
    ["backend_c", "SMALLINT", "number"],
    ["backend_c", "TINYINT", "number"],
    ["backend_c", "BIGINT", "bigint"],
    ["backend_c", "HUGEINT", "bigint"],
    ["backend_c", "DECIMAL(18,0)", "bigint"],
    ["backend_c", "DECIMAL(38,2)", "Decimal"],
    ["backend_c", "DOUBLE", "number"],
    ["backend_c", "FLOAT", "number"],
    ["backend_c", "VARCHAR", "string"],
    ["backend_c", "BOOLEAN", "boolean"],
    ["backend_c", "DATE", "Date"],
    ["backend_c", "TIMESTAMP", "Date"],
    ["backend_c", "TIMESTAMP WITH TIME ZONE", "Date"],
    ["backend_c", "INTEGER[]", "unknown"],
    ["backend_c", "", "unknown"],
    ["backend_a", "NUMBER(9,0)", "number"],
    ["backend_a", "NUMBER(10,0)", "bigint"],
    ["backend_a", "NUMBER(38,0)", "bigint"],
    ["backend_a", "NUMBER(38,2)", "Decimal"],
    ["backend_a", "NUMBER", "bigint"],
    ["backend_a", "FLOAT", "number"],
    ["backend_a", "VARCHAR(25)", "string"],
    ["backend_a", "TEXT", "string"],
    ["backend_a", "DATE", "Date"],
    ["backend_a", "TIMESTAMP_NTZ(9)", "Date"],
    ["backend_a", "BOOLEAN", "boolean"],
    ["backend_b", "int", "number"],
    ["backend_b", "bigint", "bigint"],
    ["backend_b", "bigint measure", "bigint"],
    ["backend_b", "decimal(20,2)", "Decimal"],
    ["backend_b", "decimal(20,0)", "bigint"],
    ["backend_b", "double", "number"],
    ["backend_b", "string", "string"],
    ["backend_b", "date", "Date"],
    ["backend_b", "timestamp", "Date"],
  ];
  for (const [backend, type, ts] of cases) {
    it(`${backend} ${type || "(empty)"} → ${ts}`, () => {
      expect(tsTypeOf(valueKindOf(backend, type))).to.equal(ts);
    });
  }

  it("keeps integers and floats apart for the DTO schema", () => {
    expect(valueKindOf("backend_c", "INTEGER")).to.equal("integer");
    expect(valueKindOf("backend_c", "DOUBLE")).to.equal("float");
    expect(valueKindOf("backend_a", "NUMBER(38,0)")).to.equal("bigint");
  });
});
