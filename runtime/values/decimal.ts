/**
 * An exact fixed-point decimal: an arbitrary-precision unscaled integer and a scale
 * (`value = unscaled / 10^scale`). Money columns arrive as `Decimal` so no digit is lost between the
 * warehouse and the JSON response.
 *
 * A plain, frozen class. Only genuine instances count as decimals ({@link Decimal.isDecimal} is a
 * private-field brand check plus the exact prototype), because the compilers write a decimal's
 * digits and scale into SQL: a look-alike object or a subclass could change what they read.
 * `valueOf()` throws, as Temporal's types do, so `<`, `+` and `==` cannot silently compare or
 * concatenate text: use `compareTo`/`equals`, `add`/`sub`/`mul`/`div` and `toNumber()`.
 */
import { assertRoundingMode, divideRounded, type RoundingMode } from "./decimal-rounding.js";

export type { RoundingMode } from "./decimal-rounding.js";

/** What arithmetic and comparisons accept besides a `Decimal` (a number by its shortest round-trip text). */
export type DecimalInput = Decimal | string | number | bigint;

/** `div()` options: the result's scale, or its significant digits (default 34, as IEEE decimal128), and the rounding. */
export interface DecimalDivideOptions {
  readonly scale?: number;
  readonly precision?: number;
  readonly rounding?: RoundingMode;
}

const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$|^([+-])?\.(\d+)(?:[eE]([+-]?\d+))?$/;
const DEFAULT_DIVIDE_PRECISION = 34;

function checkDigits(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`Decimal ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const digitCount = (n: bigint): number => (n < 0n ? -n : n).toString().length;

export class Decimal {
  /** The largest scale (and the most digits `parse` accepts): far beyond any warehouse's 38, small enough to stay cheap. */
  static readonly MAX_SCALE = 1000;

  /** The brand: only the constructor can add it, and a Proxy does not forward it. */
  readonly #genuine = true;
  /** The digits without the decimal point, sign included. */
  readonly unscaled: bigint;
  /** How many of those digits stand after the decimal point (an integer from 0 to MAX_SCALE). */
  readonly scale: number;

  constructor(unscaled: bigint, scale = 0) {
    if (typeof unscaled !== "bigint")
      throw new TypeError(`Decimal unscaled value must be a bigint, got ${typeof unscaled}`);
    this.unscaled = unscaled;
    this.scale = checkDigits("scale", scale, 0, Decimal.MAX_SCALE);
    Object.freeze(this);
  }

  /** Parses `"12.50"`, `"-0.5"`, `"1e3"`; takes a bigint or a finite number (by its shortest round-trip text). */
  static from(value: DecimalInput): Decimal {
    if (Decimal.isDecimal(value)) return value;
    if (typeof value === "bigint") return new Decimal(value, 0);
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RangeError(`Cannot make a Decimal from ${value}`);
      return Decimal.parse(String(value));
    }
    if (typeof value === "string") return Decimal.parse(value);
    throw new TypeError(
      `Cannot make a Decimal from ${Object.prototype.toString.call(value)} (only a genuine Decimal, string, number or bigint)`,
    );
  }

  static parse(text: string): Decimal {
    const m = typeof text === "string" ? DECIMAL_PATTERN.exec(text.trim()) : null;
    if (!m) throw new SyntaxError(`Not a decimal number: ${JSON.stringify(text)}`);
    const sign = m[1] ?? m[5] ?? "";
    const intPart = m[2] ?? "0";
    const fracPart = m[3] ?? m[6] ?? "";
    const exponent = Number(m[4] ?? m[7] ?? "0");
    const scale = fracPart.length - exponent;
    const digits = intPart.length + fracPart.length + Math.max(0, -scale);
    if (scale > Decimal.MAX_SCALE || digits > Decimal.MAX_SCALE) {
      throw new RangeError(
        `${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)} needs more than ${Decimal.MAX_SCALE} digits`,
      );
    }
    let unscaled = BigInt(intPart + fracPart);
    if (scale < 0) unscaled *= pow10(-scale);
    return new Decimal(sign === "-" ? -unscaled : unscaled, Math.max(scale, 0));
  }

  /** True only for a genuine `Decimal` made by this class: not a look-alike, a Proxy or a subclass. */
  static isDecimal(value: unknown): value is Decimal {
    return (
      typeof value === "object" &&
      value !== null &&
      #genuine in value &&
      Object.getPrototypeOf(value) === Decimal.prototype
    );
  }

  /** Significant digits of the unscaled value (at least `scale + 1`, as a SQL DECIMAL(p,s) needs). */
  get precision(): number {
    return Math.max(digitCount(this.unscaled), this.scale + 1);
  }

  /** Same value at a larger scale (never loses digits). */
  withScale(scale: number): Decimal {
    checkDigits("scale", scale, 0, Decimal.MAX_SCALE);
    if (scale < this.scale)
      throw new RangeError(`withScale(${scale}) would drop digits of ${this.toString()}; use round()`);
    return scale === this.scale ? this : new Decimal(this.unscaled * pow10(scale - this.scale), scale);
  }

  compareTo(other: DecimalInput): -1 | 0 | 1 {
    const [a, b] = aligned(this, Decimal.from(other));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Numeric equality: `1.50` equals `1.5`. */
  equals(other: DecimalInput): boolean {
    return this.compareTo(other) === 0;
  }

  add(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    const [a, b] = aligned(this, o);
    return new Decimal(a + b, Math.max(this.scale, o.scale));
  }

  sub(other: DecimalInput): Decimal {
    return this.add(Decimal.from(other).negate());
  }

  mul(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    return new Decimal(this.unscaled * o.unscaled, this.scale + o.scale);
  }

  /**
   * `this / other`, rounded: to `scale` fraction digits, or else to `precision` significant digits
   * (default 34; the integer digits are always kept). Division by zero throws a RangeError.
   */
  div(other: DecimalInput, options: DecimalDivideOptions = {}): Decimal {
    const o = Decimal.from(other);
    if (o.unscaled === 0n) throw new RangeError(`Division of ${this.toString()} by zero`);
    const rounding = options.rounding ?? "halfExpand";
    assertRoundingMode(rounding);
    if (options.scale !== undefined && options.precision !== undefined) {
      throw new RangeError("div(): give scale or precision, not both");
    }
    // this / o = (a * 10^o.scale) / (b * 10^this.scale); at scale s the unscaled result is that * 10^s.
    const numerator = this.unscaled * pow10(o.scale);
    const denominator = o.unscaled * pow10(this.scale);
    if (options.scale !== undefined) {
      const scale = checkDigits("scale", options.scale, 0, Decimal.MAX_SCALE);
      return new Decimal(divideRounded(numerator * pow10(scale), denominator, rounding), scale);
    }
    const precision = checkDigits("precision", options.precision ?? DEFAULT_DIVIDE_PRECISION, 1, Decimal.MAX_SCALE);
    if (numerator === 0n) return new Decimal(0n, Math.max(0, this.scale - o.scale));
    const scale = Math.min(Decimal.MAX_SCALE, Math.max(0, precision - 1 - magnitude(numerator, denominator)));
    // As Java's BigDecimal: trailing zeros go, down to the scale an exact quotient would have (10.00 / 4 = 2.50).
    return stripZeros(
      new Decimal(divideRounded(numerator * pow10(scale), denominator, rounding), scale),
      Math.max(0, this.scale - o.scale),
    );
  }

  /** This value with exactly `scale` fraction digits, rounded by `mode` (default `"halfExpand"`, as SQL ROUND). */
  round(scale: number, mode: RoundingMode = "halfExpand"): Decimal {
    checkDigits("scale", scale, 0, Decimal.MAX_SCALE);
    assertRoundingMode(mode);
    if (scale >= this.scale) return this.withScale(scale);
    return new Decimal(divideRounded(this.unscaled, pow10(this.scale - scale), mode), scale);
  }

  /** Plain notation with exactly `digits` fraction digits, rounded by `mode` (default `"halfExpand"`). */
  toFixed(digits: number, mode: RoundingMode = "halfExpand"): string {
    return this.round(digits, mode).toString();
  }

  negate(): Decimal {
    return new Decimal(-this.unscaled, this.scale);
  }

  abs(): Decimal {
    return this.unscaled < 0n ? this.negate() : this;
  }

  isInteger(): boolean {
    return this.unscaled % pow10(this.scale) === 0n;
  }

  /** The integer value, when the fraction is zero; throws otherwise (no silent truncation). */
  toBigInt(): bigint {
    if (!this.isInteger()) throw new RangeError(`${this.toString()} is not an integer`);
    return this.unscaled / pow10(this.scale);
  }

  /** The nearest double. Lossy by nature: prefer `toString()` when exactness matters. */
  toNumber(): number {
    return Number(this.toString());
  }

  /** Plain notation with exactly `scale` fraction digits: `Decimal.parse("7.50").toString() === "7.50"`. */
  toString(): string {
    const negative = this.unscaled < 0n;
    const digits = (negative ? -this.unscaled : this.unscaled).toString();
    if (this.scale === 0) return (negative ? "-" : "") + digits;
    const padded = digits.padStart(this.scale + 1, "0");
    const cut = padded.length - this.scale;
    return `${negative ? "-" : ""}${padded.slice(0, cut)}.${padded.slice(cut)}`;
  }

  /** `JSON.stringify` writes a string; `toJson()` of `lib` writes an exact JSON number instead. */
  toJSON(): string {
    return this.toString();
  }

  /** Throws, as Temporal does: a Decimal has no primitive value that `<`, `+` or `==` could use exactly. */
  valueOf(): never {
    throw new TypeError(
      "Decimal has no primitive value: use compareTo()/equals() to compare, add()/sub()/mul()/div() for arithmetic, " +
        "toNumber() for a (rounded) number and toString() for its exact text",
    );
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Decimal(${this.toString()})`;
  }
}

/** Both unscaled values at the larger of the two scales. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint] {
  const scale = Math.max(a.scale, b.scale);
  return [a.unscaled * pow10(scale - a.scale), b.unscaled * pow10(scale - b.scale)];
}

/** `d` without trailing fraction zeros, keeping at least `minScale` fraction digits. */
function stripZeros(d: Decimal, minScale: number): Decimal {
  let { unscaled, scale } = d;
  while (scale > minScale && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  return scale === d.scale ? d : new Decimal(unscaled, scale);
}

/** floor(log10(|n / d|)) for n, d != 0: the power of ten of the quotient's leading digit. */
function magnitude(n: bigint, d: bigint): number {
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  if (an === 0n) return 0;
  const e = digitCount(an) - digitCount(ad);
  return e >= 0 ? (an >= ad * pow10(e) ? e : e - 1) : an * pow10(-e) >= ad ? e : e - 1;
}
