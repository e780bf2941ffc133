import { ValidationError } from "../../errors.js";
import type { Decimal } from "../../values/decimal.js";

/** The smallest precision that holds `value` at its own scale; warehouses allow at most 38 digits. */
export function decimalPrecision(value: Decimal, dialectName: string): number {
  const digits = (value.unscaled < 0n ? -value.unscaled : value.unscaled).toString().length;
  const precision = Math.max(digits, value.scale + 1);
  if (precision > 38) {
    throw new ValidationError(`Decimal ${value.toString()} needs precision ${precision}; ${dialectName} allows at most 38 digits`);
  }
  return precision;
}
