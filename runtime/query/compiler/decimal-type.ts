import { ValidationError } from "../../errors.js";
import type { Decimal } from "../../values/decimal.js";
import { inRange, type IntegerRange } from "../../values/integer-ranges.js";

/** Every backend's DECIMAL/NUMBER holds at most 38 digits. */
export const MAX_DECIMAL_PRECISION = 38;

/** Why `value` does not fit a DECIMAL(p,s) of `dialectName`, or undefined. */
export function decimalProblem(value: Decimal, dialectName: string): string | undefined {
  const precision = value.precision;
  if (precision <= MAX_DECIMAL_PRECISION) return undefined;
  return `Decimal ${value.toString()} needs precision ${precision}; ${dialectName} allows at most ${MAX_DECIMAL_PRECISION} digits`;
}

/** The smallest precision that holds `value` at its own scale (the compilers checked the limit already). */
export function decimalPrecision(value: Decimal, dialectName: string): number {
  const problem = decimalProblem(value, dialectName);
  if (problem !== undefined) throw new ValidationError(problem);
  return value.precision;
}

/** Why a bigint does not fit `range` on `dialectName`, or undefined. */
export function integerProblem(value: bigint, range: IntegerRange, dialectName: string): string | undefined {
  if (inRange(value, range)) return undefined;
  return `${value}n is outside ${dialectName}'s ${range.name} range (${range.min} to ${range.max}), so it cannot be compared exactly`;
}
