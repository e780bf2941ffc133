/**
 * Rounding of an exact quotient, with the rounding modes of Temporal and Intl.NumberFormat
 * (`"halfExpand"` is school rounding: half away from zero, as SQL's ROUND does).
 */
export type RoundingMode =
  "ceil" | "floor" | "expand" | "trunc" | "halfCeil" | "halfFloor" | "halfExpand" | "halfTrunc" | "halfEven";

export const ROUNDING_MODES: readonly RoundingMode[] = Object.freeze([
  "ceil",
  "floor",
  "expand",
  "trunc",
  "halfCeil",
  "halfFloor",
  "halfExpand",
  "halfTrunc",
  "halfEven",
]);

export function assertRoundingMode(mode: unknown): asserts mode is RoundingMode {
  if (!(ROUNDING_MODES as readonly unknown[]).includes(mode)) {
    throw new RangeError(`Unknown rounding mode ${JSON.stringify(mode)}; use one of ${ROUNDING_MODES.join(", ")}`);
  }
}

/** `numerator / denominator` (denominator != 0) rounded to an integer by `mode`. */
export function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator < 0n) return divideRounded(-numerator, -denominator, mode);
  const truncated = numerator / denominator; // rounds toward zero
  const remainder = numerator % denominator;
  if (remainder === 0n) return truncated;
  const negative = numerator < 0n;
  const away = truncated + (negative ? -1n : 1n);
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  const half = twice === denominator ? 0 : twice > denominator ? 1 : -1; // vs. exactly one half
  switch (mode) {
    case "trunc":
      return truncated;
    case "expand":
      return away;
    case "ceil":
      return negative ? truncated : away;
    case "floor":
      return negative ? away : truncated;
    case "halfExpand":
      return half >= 0 ? away : truncated;
    case "halfTrunc":
      return half > 0 ? away : truncated;
    case "halfCeil":
      return half > 0 || (half === 0 && !negative) ? away : truncated;
    case "halfFloor":
      return half > 0 || (half === 0 && negative) ? away : truncated;
    case "halfEven":
      return half > 0 || (half === 0 && truncated % 2n !== 0n) ? away : truncated;
  }
}
