import { ValidationError } from "../errors.js";
import type { Decimal } from "../values/decimal.js";

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
