import { Decimal } from "../../values/decimal.js";

/** A value a condition may compare against: always data, never SQL text. */
export type FilterValue = string | number | bigint | boolean | Date | Decimal;

/** Why `value` is not a {@link FilterValue}, or undefined when it is one. */
export function describeInvalidFilterValue(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "bigint":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value} is not a finite number`;
    case "object":
      if (value === null) return "null is only allowed in eq()/ne()/in()/notIn() (it means IS NULL)";
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? "the Date is invalid" : undefined;
      if (Decimal.isDecimal(value)) return undefined;
      return `${Object.prototype.toString.call(value)} is not a supported value`;
    default:
      return `a ${typeof value} is not a supported value`;
  }
}

/** Freezes a Date copy so later mutation of the caller's Date cannot change a built condition. */
export function snapshotFilterValue(value: FilterValue): FilterValue {
  return value instanceof Date ? new Date(value.getTime()) : value;
}
