/**
 * A relative date range on a Date dimension or fact (`Orders.orderedOn.inLast(7, "day")`). The node keeps
 * the range as written; the query executor turns it into absolute half-open bounds (`>= start AND < end`)
 * just before compiling, from the clock, time zone and week start then in force, so every dialect gets
 * the same comparison and a query kept for tomorrow is not stuck with today's bounds.
 */
import type { FieldNode } from "./field-node.js";

export type DateUnit = "day" | "week" | "month" | "quarter" | "year";
export const DATE_UNITS: readonly DateUnit[] = Object.freeze(["day", "week", "month", "quarter", "year"]);

/** `last`: the current unit and the `count - 1` before it; `toDate`: from the unit's start to now. */
export type DateRangeKind = "last" | "current" | "previous" | "toDate";

export interface DateRangeOptions {
  /** IANA time zone the calendar units are counted in (default `"UTC"`). */
  readonly timeZone?: string | undefined;
  /** The first day of a week (default `"monday"`). */
  readonly weekStart?: "monday" | "sunday" | undefined;
  /** The instant ranges are relative to, or a clock (default: the current instant when the query compiles). */
  readonly now?: Date | (() => Date) | undefined;
}

export interface DateRangeNode {
  readonly kind: "DateRangeNode";
  readonly field: FieldNode;
  readonly range: DateRangeKind;
  readonly count: number;
  readonly unit: DateUnit;
  /** Options given with the condition; the engine's and the built-in defaults fill the rest. */
  readonly options: DateRangeOptions;
}

/** What is wrong with `options` (a message naming the option), or undefined. */
export function dateRangeOptionsProblem(options: unknown): string | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null) return "options must be an object { timeZone, weekStart, now }";
  const { timeZone, weekStart, now } = options as Record<string, unknown>;
  if (timeZone !== undefined) {
    if (typeof timeZone !== "string") return `timeZone must be an IANA time zone name, got ${typeof timeZone}`;
    try {
      new Intl.DateTimeFormat("en-US", { timeZone });
    } catch {
      return `timeZone ${JSON.stringify(timeZone)} is not a known IANA time zone (e.g. "Europe/Berlin", "UTC")`;
    }
  }
  if (weekStart !== undefined && weekStart !== "monday" && weekStart !== "sunday") {
    return `weekStart must be "monday" or "sunday", got ${JSON.stringify(weekStart)}`;
  }
  if (now !== undefined && typeof now !== "function" && !(now instanceof Date && !Number.isNaN(now.getTime()))) {
    return "now must be a valid Date or a function returning one";
  }
  return undefined;
}

/** What is wrong with a range's count and unit, or undefined. */
export function dateRangeProblem(range: DateRangeKind, count: unknown, unit: unknown): string | undefined {
  if (range === "last" && (typeof count !== "number" || !Number.isSafeInteger(count) || count < 1)) {
    return `the count must be a positive integer, got ${typeof count === "number" ? count : typeof count}`;
  }
  if (typeof unit !== "string" || !(DATE_UNITS as readonly string[]).includes(unit)) {
    return `the unit must be one of ${DATE_UNITS.map((u) => `"${u}"`).join(", ")}, got ${JSON.stringify(unit)}`;
  }
  return undefined;
}

export function createDateRangeNode(
  field: FieldNode,
  range: DateRangeKind,
  count: number,
  unit: DateUnit,
  options: DateRangeOptions = {},
): DateRangeNode {
  // A Date given as `now` is copied: the caller may change theirs afterwards.
  const now = options.now instanceof Date ? new Date(options.now.getTime()) : options.now;
  const kept = Object.freeze({ ...options, ...(now === undefined ? {} : { now }) });
  return Object.freeze({ kind: "DateRangeNode", field, range, count, unit, options: kept });
}
