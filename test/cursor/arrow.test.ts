import { expect } from "chai";
import {
  Bool,
  DateDay,
  Decimal as ArrowDecimal,
  Float64,
  Int32,
  Int64,
  TimestampMillisecond,
  Utf8,
} from "apache-arrow";
import { LibError } from "../../runtime/errors.js";
import { decimalPrecisionScale } from "../../runtime/cursor/arrow-table.js";
import { useHarness } from "./support/cursor-harness.js";
import { failureOf } from "../support/failures.js";

/** Reads a Decimal128 cell (four little-endian 32-bit words, two's complement) back as its unscaled bigint. */
function unscaled(words: Uint32Array): bigint {
  let v = 0n;
  for (let i = 3; i >= 0; i--) v = (v << 32n) | BigInt(words[i]!);
  return v >= 2n ** 127n ? v - 2n ** 128n : v;
}

describe("cursor: fetchArrow", () => {
  const h = useHarness();

  it("builds typed columns with exact values for every value kind, nulls included", async () => {
    await using cursor = await h.cursor(`SELECT * FROM (VALUES
      (1::INTEGER, 9223372036854775807::BIGINT, 12345678901234567890.123456789::DECIMAL(38,9), 1.5::DOUBLE, 'a', true, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123'),
      ((-2147483648)::INTEGER, -9007199254740993::BIGINT, -0.000000001::DECIMAL(38,9), -0.25::DOUBLE, 'ü€', false, DATE '1969-12-31', TIMESTAMP '1970-01-01 00:00:00'),
      (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
    ) t(i32, i64, dec, f, s, b, d, ts)`);
    const table = await cursor.fetchArrow();
    expect(table.numRows).to.equal(3);
    const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, f.type]));
    expect(types["i32"]).to.be.instanceOf(Int32);
    expect(types["i64"]).to.be.instanceOf(Int64);
    expect(types["dec"]).to.be.instanceOf(ArrowDecimal).and.include({ precision: 38, scale: 9, bitWidth: 128 });
    expect(types["f"]).to.be.instanceOf(Float64);
    expect(types["s"]).to.be.instanceOf(Utf8);
    expect(types["b"]).to.be.instanceOf(Bool);
    expect(types["d"]).to.be.instanceOf(DateDay);
    expect(types["ts"]).to.be.instanceOf(TimestampMillisecond);

    const get = (name: string, row: number): unknown => table.getChild(name)!.get(row);
    expect([get("i32", 0), get("i32", 1), get("i32", 2)]).to.deep.equal([1, -2147483648, null]);
    expect([get("i64", 0), get("i64", 1), get("i64", 2)]).to.deep.equal([
      9223372036854775807n,
      -9007199254740993n,
      null,
    ]);
    expect(unscaled(get("dec", 0) as Uint32Array)).to.equal(12345678901234567890123456789n);
    expect(unscaled(get("dec", 1) as Uint32Array)).to.equal(-1n);
    expect(get("dec", 2)).to.equal(null);
    expect([get("f", 0), get("f", 1), get("f", 2)]).to.deep.equal([1.5, -0.25, null]);
    expect([get("s", 0), get("s", 1), get("s", 2)]).to.deep.equal(["a", "ü€", null]);
    expect([get("b", 0), get("b", 1), get("b", 2)]).to.deep.equal([true, false, null]);
    expect([get("d", 0), get("d", 1)]).to.deep.equal([Date.UTC(2024, 0, 2), Date.UTC(1969, 11, 31)]);
    expect([get("ts", 0), get("ts", 1), get("ts", 2)]).to.deep.equal([Date.UTC(2024, 0, 2, 3, 4, 5, 123), 0, null]);
  });

  it("builds many chunks column by column (50k rows) and gives the connection back", async () => {
    await using cursor = await h.cursor(
      "SELECT i::INTEGER AS i, (i + 0.25)::DECIMAL(18,2) AS q, CASE WHEN i % 3 = 0 THEN NULL ELSE -i END AS n FROM range(50000) t(i)",
    );
    const table = await cursor.fetchArrow();
    expect(table.numRows).to.equal(50_000);
    expect(table.getChild("i")!.get(49_999)).to.equal(49_999);
    expect(table.schema.fields[1]!.type).to.be.instanceOf(ArrowDecimal).and.include({ precision: 18, scale: 2 });
    expect(unscaled(table.getChild("q")!.get(49_999) as Uint32Array)).to.equal(4_999_925n);
    const n = table.getChild("n")!;
    expect(n.nullCount).to.equal(16_667);
    expect([n.get(0), n.get(1), n.get(2), n.get(3), n.get(49_999)]).to.deep.equal([null, -1n, -2n, null, -49_999n]);
  });

  it("an empty result still has the typed schema", async () => {
    await using cursor = await h.cursor("SELECT 1::BIGINT AS n, 'x' AS s WHERE false");
    const table = await cursor.fetchArrow();
    expect(table.numRows).to.equal(0);
    expect(table.schema.fields.map((f) => [f.name, String(f.type)])).to.deep.equal([
      ["n", "Int64"],
      ["s", "Utf8"],
    ]);
  });

  it("a HUGEINT value beyond Int64 fails with a clear error instead of wrapping", async () => {
    const cursor = await h.cursor("SELECT 170141183460469231731687303715884105727::HUGEINT AS huge");
    const error = await failureOf(cursor.fetchArrow());
    expect(error)
      .to.be.instanceOf(LibError)
      .with.property("message")
      .that.matches(/column "huge" \(HUGEINT\).*does not fit Int64/);
  });

  it("a column type with no Arrow mapping is refused by name", async () => {
    const cursor = await h.cursor("SELECT [1, 2] AS xs");
    const error = await failureOf(cursor.fetchArrow());
    expect(error).to.be.instanceOf(LibError).with.property("message").that.contains('column "xs" has type INTEGER[]');
  });

  it("parses precision and scale from warehouse type text", () => {
    expect(decimalPrecisionScale("DECIMAL(38,2)")).to.deep.equal({ precision: 38, scale: 2 });
    expect(decimalPrecisionScale("NUMBER(10, 0)")).to.deep.equal({ precision: 10, scale: 0 });
    expect(decimalPrecisionScale("decimal(7)")).to.deep.equal({ precision: 7, scale: 0 });
    expect(decimalPrecisionScale("DOUBLE")).to.equal(undefined);
  });
});
