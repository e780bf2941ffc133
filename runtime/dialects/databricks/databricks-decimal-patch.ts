/**
 * Works around a precision bug in `@databricks/sql` 2.x (checked in 2.1.0): with
 * `preserveBigNumericPrecision`, an Arrow Decimal128 is first turned into a decimal *string* by
 * apache-arrow's `bigNumToBigInt`, and the driver's `bigNumDecimalToString` then negates that
 * string with unary minus, i.e. through a double: a negative DECIMAL whose unscaled value exceeds
 * 2^53 comes out as garbage such as `-1.2345678901234568e.+22`. Positive values are exact.
 *
 * The fix wraps `ArrowResultConverter.prototype.convertArrowTypes` once per process: for a
 * Decimal cell, when precision is to be preserved, it formats the two's-complement words itself
 * (exactly, with BigInt); every other value goes to the driver's own conversion. This only
 * changes results for clients that set `preserveBigNumericPrecision`, and only makes them exact.
 * If the driver's internals move, the patch is skipped and values stay as the driver gives them.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const PATCHED = Symbol.for("lib.databricksDecimalPatch");
/** apache-arrow's `Type.Decimal`. */
const ARROW_DECIMAL_TYPE_ID = 7;

type Convert = (
  this: { preserveBigNumericPrecision?: boolean },
  value: unknown,
  valueType?: unknown,
  ...rest: unknown[]
) => unknown;

let applied = false;

export function applyDecimalPrecisionPatch(): void {
  if (applied) return;
  applied = true;
  let proto: (Record<string | symbol, unknown> & { convertArrowTypes?: Convert }) | undefined;
  try {
    const module = require("@databricks/sql/dist/result/ArrowResultConverter.js") as {
      default?: { prototype: typeof proto };
    };
    proto = module.default?.prototype;
  } catch {
    return;
  }
  if (proto === undefined || typeof proto.convertArrowTypes !== "function" || proto[PATCHED] === true) return;
  const original = proto.convertArrowTypes;
  proto.convertArrowTypes = function (this: { preserveBigNumericPrecision?: boolean }, value, valueType, ...rest) {
    if (this.preserveBigNumericPrecision === true && value instanceof Uint32Array && isDecimalType(valueType)) {
      return decimalWordsToString(value, valueType.scale);
    }
    return original.call(this, value, valueType, ...rest);
  };
  proto[PATCHED] = true;
}

function isDecimalType(type: unknown): type is { scale: number } {
  const t = type as { typeId?: unknown; scale?: unknown } | undefined;
  return t !== undefined && t !== null && t.typeId === ARROW_DECIMAL_TYPE_ID && typeof t.scale === "number";
}

/** Little-endian 32-bit words of a two's-complement integer, scaled, as exact decimal text. */
export function decimalWordsToString(words: Uint32Array, scale: number): string {
  let unscaled = 0n;
  for (let i = words.length - 1; i >= 0; i--) unscaled = (unscaled << 32n) | BigInt(words[i]!);
  const bits = BigInt(words.length * 32);
  if (words.length > 0 && (words[words.length - 1]! & 0x80000000) !== 0) unscaled -= 1n << bits;
  if (scale <= 0) return unscaled.toString();
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  const cut = digits.length - scale;
  return `${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
