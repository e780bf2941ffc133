import { expect } from "chai";
import { Decimal, type RoundingMode } from "lib";
import { mulberry32 as prng } from "../../scripts/prng.js";

const d = (text: string) => Decimal.parse(text);

describe("Decimal: a plain exact class", () => {
  it("is not callable and has no primitive value: <, + and == throw a TypeError that names compareTo/toNumber", () => {
    expect(() => (Decimal as unknown as () => unknown)()).to.throw(TypeError);
    const nine = d("9");
    const ten = d("10");
    expect(() => (nine as unknown as number) > (ten as unknown as number)).to.throw(TypeError, /compareTo\(\)/);
    expect(() => (nine as unknown as number) + 1).to.throw(TypeError, /toNumber\(\)/);
    expect(() => nine.valueOf()).to.throw(TypeError);
    // String conversion stays exact (template literals and String() use toString()).
    expect(`${d("7.50")}`).to.equal("7.50");
    expect(String(d("-0.05"))).to.equal("-0.05");
    expect(nine.compareTo(ten)).to.equal(-1);
    expect(JSON.stringify({ v: d("1.10") })).to.equal('{"v":"1.10"}');
  });

  it("adds, subtracts and multiplies exactly", () => {
    expect(d("0.1").add("0.2").toString()).to.equal("0.3");
    expect(d("1.50").sub(d("2.125")).toString()).to.equal("-0.625");
    expect(d("12345678901234567890.5").mul(2n).toString()).to.equal("24691357802469135781.0");
    expect(d("1.5").add(1).toString()).to.equal("2.5");
    expect(d("-2").abs().toString()).to.equal("2");
  });

  it("divides to a scale or a precision, with a rounding mode", () => {
    expect(d("1").div(3, { scale: 4 }).toString()).to.equal("0.3333");
    expect(d("2").div(3, { scale: 2 }).toString()).to.equal("0.67");
    expect(d("2").div(3, { scale: 2, rounding: "trunc" }).toString()).to.equal("0.66");
    expect(d("10.00").div(4).toString()).to.equal("2.50");
    expect(d("1").div(4).toString()).to.equal("0.25");
    expect(d("1").div(3).toString()).to.equal(`0.${"3".repeat(34)}`);
    expect(d("1000").div(3, { precision: 5 }).toString()).to.equal("333.33");
    expect(d("0.001").div(3, { precision: 2 }).toString()).to.equal("0.00033");
    expect(d("-7").div(2, { scale: 0, rounding: "floor" }).toString()).to.equal("-4");
    expect(d("0").div(7).toString()).to.equal("0");
    expect(() => d("1").div(0)).to.throw(RangeError, /by zero/);
    expect(() => d("1").div(3, { scale: 2, precision: 3 })).to.throw(RangeError, /not both/);
    expect(() => d("1").div(3, { scale: -1 })).to.throw(RangeError, /scale must be an integer/);
    expect(() => d("1").div(3, { rounding: "up" as RoundingMode })).to.throw(RangeError, /rounding mode/);
  });

  it("rounds with every mode (as Temporal and Intl name them) and formats with toFixed", () => {
    const table: Record<RoundingMode, [string, string, string, string, string]> = {
      // 2.5, -2.5, 2.51, 3.5, -2.4 to 0 digits
      ceil: ["3", "-2", "3", "4", "-2"],
      floor: ["2", "-3", "2", "3", "-3"],
      expand: ["3", "-3", "3", "4", "-3"],
      trunc: ["2", "-2", "2", "3", "-2"],
      halfCeil: ["3", "-2", "3", "4", "-2"],
      halfFloor: ["2", "-3", "3", "3", "-2"],
      halfExpand: ["3", "-3", "3", "4", "-2"],
      halfTrunc: ["2", "-2", "3", "3", "-2"],
      halfEven: ["2", "-2", "3", "4", "-2"],
    };
    for (const [mode, expected] of Object.entries(table) as [RoundingMode, string[]][]) {
      const got = ["2.5", "-2.5", "2.51", "3.5", "-2.4"].map((x) => d(x).round(0, mode).toString());
      expect(got, mode).to.deep.equal(expected);
    }
    expect(d("1.005").toFixed(2)).to.equal("1.01"); // exact, unlike Number.prototype.toFixed
    expect(d("1.5").toFixed(3)).to.equal("1.500");
    expect(d("1.25").round(1, "halfEven").toString()).to.equal("1.2");
  });

  it("divides within one unit in the last place, as exact rational arithmetic says (500 seeded cases)", () => {
    const random = prng(0xdec1);
    const randomDecimal = () => {
      const digits = String(Math.floor(random() * 1e9)) + String(Math.floor(random() * 1e9));
      const sign = random() < 0.3 ? "-" : "";
      return new Decimal(BigInt(sign + digits), Math.floor(random() * 12));
    };
    for (let n = 0; n < 500; n++) {
      const a = randomDecimal();
      const b = randomDecimal();
      if (b.unscaled === 0n) continue;
      const scale = Math.floor(random() * 20);
      const q = a.div(b, { scale, rounding: "trunc" });
      // a/b - q, scaled: (a - q*b) / b must lie in [0, 10^-scale) in the direction of a/b.
      const remainder = a.sub(q.mul(b));
      const ulp = new Decimal(1n, scale).mul(b).abs();
      const context = `${a} / ${b} at scale ${scale} = ${q}`;
      expect(q.scale, context).to.equal(scale);
      expect(remainder.abs().compareTo(ulp), context).to.equal(-1);
      expect(remainder.unscaled === 0n || remainder.unscaled < 0n === a.unscaled < 0n, context).to.equal(true);
      const p = a.div(b, { precision: 12 });
      // 12 significant digits (13 when rounding carries into a new digit); integer digits are always kept.
      if (p.scale > 0)
        expect(p.unscaled.toString().replace("-", "").replace(/0+$/, "").length, `${context}, p=${p}`).to.be.at.most(
          13,
        );
      expect(Decimal.parse(a.toString()).toString()).to.equal(a.toString());
    }
  });

  it("compares and converts", () => {
    expect(d("1.50").equals("1.5")).to.equal(true);
    expect(d("-1").compareTo(0)).to.equal(-1);
    expect(d("12.00").toBigInt()).to.equal(12n);
    expect(() => d("12.5").toBigInt()).to.throw(RangeError);
    expect(d("0.1").toNumber()).to.equal(0.1);
    expect(d("123.450").precision).to.equal(6);
    expect(d("0.05").precision).to.equal(3);
  });

  it("validates what it is made of: a bigint and an integer scale in range", () => {
    expect(() => new Decimal(1 as unknown as bigint, 0)).to.throw(TypeError, /bigint/);
    for (const scale of [-1, 1.5, Number.NaN, 1001, "2" as unknown as number]) {
      expect(() => new Decimal(1n, scale), String(scale)).to.throw(
        RangeError,
        /scale must be an integer from 0 to 1000/,
      );
    }
    expect(() => Decimal.parse("1e-2000")).to.throw(RangeError, /more than 1000 digits/);
    expect(() => Decimal.parse("1e999999999")).to.throw(RangeError, /more than 1000 digits/);
    expect(() => Decimal.parse("1.2.3")).to.throw(SyntaxError);
    expect(() => Decimal.from({} as unknown as string)).to.throw(TypeError);
    expect(Object.isFrozen(d("1.5"))).to.equal(true);
  });

  it("recognizes only genuine instances: no look-alike, Proxy or subclass", () => {
    const genuine = d("1.5");
    expect(Decimal.isDecimal(genuine)).to.equal(true);
    const forged = {
      [Symbol.for("lib.Decimal")]: true,
      unscaled: 1n,
      scale: "0) OR 1=1 --",
      toString: () => "1 OR 1=1",
    };
    expect(Decimal.isDecimal(forged)).to.equal(false);
    expect(Decimal.isDecimal(Object.create(Decimal.prototype))).to.equal(false);
    expect(Decimal.isDecimal(new Proxy(genuine, {}))).to.equal(false);
    class Sneaky extends Decimal {
      override toString(): string {
        return "1; DROP TABLE t";
      }
    }
    expect(Decimal.isDecimal(new Sneaky(1n, 0))).to.equal(false);
    expect(Decimal.from(genuine)).to.equal(genuine);
    expect(() => Decimal.from(forged as unknown as Decimal)).to.throw(TypeError);
  });
});
