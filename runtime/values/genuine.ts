/**
 * Genuine values: what a binder or literal writer may trust. A look-alike object, a Proxy or a
 * subclass can override the methods that produce SQL text or bind values (`toISOString`,
 * `toString`), or throw a bare TypeError from them, so only instances made by the built-in
 * constructors count.
 */
import { Decimal } from "./decimal.js";

/** A `Date` made by `new Date()`: not a subclass, not a Proxy (whose Date methods throw). */
export function isGenuineDate(value: unknown): value is Date {
  try {
    if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Date.prototype) return false;
    Date.prototype.getTime.call(value); // throws unless `value` has a Date's internal slot
    return true;
  } catch {
    return false; // a Proxy's getPrototypeOf trap may throw too
  }
}

/** Text naming a value in an error: bigints with `n`, `-0` as written, objects by their tag. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return `${value}n`;
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "string":
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
    case "object":
      if (value === null) return "null";
      if (Decimal.isDecimal(value)) return `Decimal(${value.toString()})`;
      return objectTag(value);
    default:
      return typeof value;
  }
}

/** `[object Date]`-style tag plus the constructor's name when it is not the tag's own (a subclass). */
function objectTag(value: object): string {
  try {
    const tag = Object.prototype.toString.call(value);
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" && name !== "" && !tag.includes(name) ? `${tag} (class ${name})` : tag;
  } catch {
    return "an object whose prototype cannot be read (a Proxy?)";
  }
}
