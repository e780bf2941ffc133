import { expect } from "chai";
import { Decimal } from "../../runtime/values/decimal.js";
import { jsonReplacer, jsonReplacerWritesNumbers, toJson } from "../../runtime/values/json.js";

describe("toJson: lossless JSON", () => {
  it("writes bigint and Decimal as exact JSON numbers", () => {
    const body = {
      max: 2n ** 63n - 1n,
      min: -(2n ** 63n),
      money: Decimal.parse("12345678901234567890.123456789"),
      cents: Decimal.parse("-0.05"),
    };
    const text = toJson(body);
    expect(text).to.equal(
      '{"max":9223372036854775807,"min":-9223372036854775808,"money":12345678901234567890.123456789,"cents":-0.05}',
    );
    // The text is valid JSON; the digits survive exactly (checked by reading the raw text, not via doubles).
    expect(() => JSON.parse(text)).to.not.throw();
    expect(text).to.contain("12345678901234567890.123456789");
  });

  it("matches JSON.stringify for everything JSON already handles", () => {
    const value = {
      s: 'quote " backslash \\ newline \n unicode ü \u2028',
      n: 1.5,
      neg0: -0,
      nan: Number.NaN,
      inf: Infinity,
      t: true,
      nul: null,
      und: undefined,
      fn: () => 1,
      sym: Symbol("x"),
      list: [1, undefined, () => 2, null, "x", [2, { deep: [] }]],
      empty: {},
      date: new Date("2024-01-02T03:04:05.123Z"),
      boxed: [new Number(3), new String("s"), new Boolean(false)],
      custom: { toJSON: (key: string) => `custom:${key}` },
      map: new Map([["a", 1]]),
    };
    expect(toJson(value)).to.equal(JSON.stringify(value));
    for (const space of [2, "\t", 20, "--------------x"] as const)
      expect(toJson(value, space)).to.equal(JSON.stringify(value, null, space));
    expect(toJson([])).to.equal("[]");
    expect(toJson("x")).to.equal('"x"');
  });

  it("indents bigint and Decimal like numbers", () => {
    expect(toJson({ a: [1n, Decimal.parse("2.50")] }, 2)).to.equal('{\n  "a": [\n    1,\n    2.50\n  ]\n}');
  });

  it("writes dates as ISO text and honours toJSON results that are bigint or Decimal", () => {
    const wrapped = { toJSON: () => ({ v: 10n ** 30n, d: Decimal.parse("1e-3") }) };
    expect(toJson({ when: new Date(0), wrapped })).to.equal(
      '{"when":"1970-01-01T00:00:00.000Z","wrapped":{"v":1000000000000000000000000000000,"d":0.001}}',
    );
  });

  it("throws a TypeError on cycles and on values with no JSON form at top level, but not on shared references", () => {
    const a: Record<string, unknown> = { x: 1 };
    a["self"] = a;
    expect(() => toJson(a)).to.throw(TypeError, /circular/);
    const shared = { n: 1n };
    expect(toJson([shared, shared])).to.equal('[{"n":1},{"n":1}]');
    expect(() => toJson(undefined)).to.throw(TypeError);
  });

  it("ignores a global BigInt.prototype.toJSON patch", () => {
    const proto = BigInt.prototype as { toJSON?: () => string };
    proto.toJSON = function () {
      return "patched";
    };
    try {
      expect(toJson({ n: 5n })).to.equal('{"n":5}');
    } finally {
      delete proto.toJSON;
    }
  });

  it("jsonReplacer keeps bigint and Decimal lossless with JSON.stringify (numbers where JSON.rawJSON exists, exact strings otherwise)", () => {
    const text = JSON.stringify({ n: 2n ** 64n, d: Decimal.parse("0.10"), s: "x" }, jsonReplacer);
    if (jsonReplacerWritesNumbers) expect(text).to.equal('{"n":18446744073709551616,"d":0.10,"s":"x"}');
    else expect(text).to.equal('{"n":"18446744073709551616","d":"0.10","s":"x"}');
  });
});
