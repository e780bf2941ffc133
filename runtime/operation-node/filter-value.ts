import { Decimal } from "../values/decimal.js";
import { describeValue, isGenuineDate } from "../values/genuine.js";
import { inexactNumberProblem } from "../values/integer-ranges.js";

/** A value a condition may compare against: always data, never SQL text. */
export type FilterValue = string | number | bigint | boolean | Date | Decimal;

/**
 * Why `value` is not a {@link FilterValue}, or undefined when it is one. Only genuine Dates and
 * Decimals count (see values/genuine.ts); numbers must be finite and not -0. Ranges that differ per
 * backend are the compilers' to check.
 */
export function describeInvalidFilterValue(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "bigint":
    case "boolean":
      return undefined;
    case "number":
      return inexactNumberProblem(value);
    case "object":
      if (value === null) return "null is only allowed in eq()/ne()/in()/notIn() (it means IS NULL)";
      if (isGenuineDate(value)) return Number.isNaN(value.getTime()) ? "the Date is invalid" : undefined;
      if (Decimal.isDecimal(value)) return undefined;
      return `${describeValue(value)} is not a supported value (only a string, number, bigint, boolean, or a genuine Date or Decimal: no subclass, Proxy or look-alike)`;
    default:
      return `a ${typeof value} is not a supported value`;
  }
}

/** Freezes a Date copy so later mutation of the caller's Date cannot change a built condition. */
export function snapshotFilterValue(value: FilterValue): FilterValue {
  return isGenuineDate(value) ? new Date(value.getTime()) : value;
}
