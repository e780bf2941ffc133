/**
 * An exact fixed-point decimal: an arbitrary-precision unscaled integer and a scale
 * (`value = unscaled / 10^scale`). Money columns arrive as `Decimal` so no digit is lost between the
 * warehouse and the JSON response.
 */
const DECIMAL_BRAND = Symbol.for("lib.Decimal");
const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$|^([+-])?\.(\d+)(?:[eE]([+-]?\d+))?$/;

export class Decimal {
  /** The digits without the decimal point, sign included. */
  readonly unscaled: bigint;
  /** How many of those digits stand after the decimal point (>= 0). */
  readonly scale: number;

  constructor(unscaled: bigint, scale = 0) {
    if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`Decimal scale must be a non-negative integer, got ${scale}`);
    this.unscaled = unscaled;
    this.scale = scale;
    Object.freeze(this);
  }

  /** Parses `"12.50"`, `"-0.5"`, `"1e3"`; takes a bigint or a finite number (by its shortest round-trip text). */
  static from(value: string | number | bigint | Decimal): Decimal {
    if (value instanceof Decimal) return value;
    if (typeof value === "bigint") return new Decimal(value, 0);
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RangeError(`Cannot make a Decimal from ${value}`);
      return Decimal.parse(String(value));
    }
    return Decimal.parse(value);
  }

  static parse(text: string): Decimal {
    const m = DECIMAL_PATTERN.exec(text.trim());
    if (!m) throw new SyntaxError(`Not a decimal number: ${JSON.stringify(text)}`);
    const sign = m[1] ?? m[5] ?? "";
    const intPart = m[2] ?? "0";
    const fracPart = m[3] ?? m[6] ?? "";
    const exponent = Number(m[4] ?? m[7] ?? "0");
    let unscaled = BigInt(intPart + fracPart);
    let scale = fracPart.length - exponent;
    if (scale < 0) {
      unscaled *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new Decimal(sign === "-" ? -unscaled : unscaled, scale);
  }

  /** True for any `Decimal`, also one from another copy of the package. */
  static isDecimal(value: unknown): value is Decimal {
    return value instanceof Decimal || (typeof value === "object" && value !== null && (value as { [DECIMAL_BRAND]?: true })[DECIMAL_BRAND] === true);
  }

  get [DECIMAL_BRAND](): true {
    return true;
  }

  /** Same value at a larger scale (never loses digits). */
  withScale(scale: number): Decimal {
    if (scale < this.scale) throw new RangeError(`withScale(${scale}) would drop digits of ${this.toString()}`);
    return new Decimal(this.unscaled * 10n ** BigInt(scale - this.scale), scale);
  }

  compareTo(other: Decimal | string | number | bigint): -1 | 0 | 1 {
    const o = Decimal.from(other);
    const s = Math.max(this.scale, o.scale);
    const a = this.withScale(s).unscaled;
    const b = o.withScale(s).unscaled;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Numeric equality: `1.50` equals `1.5`. */
  equals(other: Decimal | string | number | bigint): boolean {
    return this.compareTo(other) === 0;
  }

  plus(other: Decimal | string | number | bigint): Decimal {
    const o = Decimal.from(other);
    const s = Math.max(this.scale, o.scale);
    return new Decimal(this.withScale(s).unscaled + o.withScale(s).unscaled, s);
  }

  minus(other: Decimal | string | number | bigint): Decimal {
    return this.plus(Decimal.from(other).negate());
  }

  times(other: Decimal | string | number | bigint): Decimal {
    const o = Decimal.from(other);
    return new Decimal(this.unscaled * o.unscaled, this.scale + o.scale);
  }

  negate(): Decimal {
    return new Decimal(-this.unscaled, this.scale);
  }

  isInteger(): boolean {
    return this.unscaled % 10n ** BigInt(this.scale) === 0n;
  }

  /** The integer value, when the fraction is zero; throws otherwise (no silent truncation). */
  toBigInt(): bigint {
    if (!this.isInteger()) throw new RangeError(`${this.toString()} is not an integer`);
    return this.unscaled / 10n ** BigInt(this.scale);
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

  valueOf(): string {
    return this.toString();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Decimal(${this.toString()})`;
  }
}
