/**
 * Relative date ranges become absolute half-open bounds on the client, so every dialect compares the
 * same instants: `inCurrent("month")` in Europe/Berlin on 2024-03-15 is `>= 2024-02-29T23:00:00Z AND <
 * 2024-03-31T22:00:00Z`. Calendar units are counted on the zone's wall clock; where a unit starts is
 * computed with `@date-fns/tz` (an optional peer, loaded when a range is first resolved), which knows
 * each zone's offsets, its DST transitions and days whose midnight does not exist (the start is then
 * the first instant of the day).
 *
 * | range               | start                              | end (excluded)        |
 * | ------------------- | ---------------------------------- | --------------------- |
 * | `inCurrent(u)`      | start of the current `u`           | start of the next `u` |
 * | `inPrevious(u)`     | start of the previous `u`          | start of the current  |
 * | `inLast(n, u)`      | start of the `u` `n - 1` before    | start of the next `u` |
 * | `toDate(u)`         | start of the current `u`           | now                   |
 */
import { requirePeer } from "../packages/peer-package.js";
import { ConditionNode } from "../operation-node/condition-node.js";
import type { DateRangeNode, DateRangeOptions, DateUnit } from "../operation-node/date-range-node.js";
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";

interface TzModule {
  TZDate: new (...args: [number, number, number, number, number, number, number, string] | [number, string]) => Date;
}

let tz: TzModule | undefined;
function tzModule(): TzModule {
  tz ??= requirePeer<TzModule>({ name: "@date-fns/tz", usedFor: "Relative date ranges (inLast, inCurrent, ...)" });
  return tz;
}

export interface DateBounds {
  readonly start: Date;
  readonly end: Date;
}

/** A calendar date on the zone's wall clock (month 0-based; out-of-range days and months roll over). */
interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function civil(year: number, month: number, day: number): CivilDate {
  // Calendar arithmetic only (no zone): Date.UTC normalizes day 0, month 13 and the like.
  const d = new Date(Date.UTC(year, month, day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}

/** The start of the unit containing `today`, shifted by `offset` units. */
function unitStart(today: CivilDate, weekday: number, unit: DateUnit, weekStart: number, offset: number): CivilDate {
  switch (unit) {
    case "day":
      return civil(today.year, today.month, today.day + offset);
    case "week":
      return civil(today.year, today.month, today.day - ((weekday - weekStart + 7) % 7) + 7 * offset);
    case "month":
      return civil(today.year, today.month + offset, 1);
    case "quarter":
      return civil(today.year, today.month - (today.month % 3) + 3 * offset, 1);
    case "year":
      return civil(today.year + offset, 0, 1);
  }
}

/** The range's bounds under `options` (each option falling back to `defaults`, then UTC, Monday, the clock). */
export function dateRangeBounds(
  range: Pick<DateRangeNode, "range" | "count" | "unit">,
  options: DateRangeOptions,
  defaults: DateRangeOptions = {},
): DateBounds {
  const { TZDate } = tzModule();
  const timeZone = options.timeZone ?? defaults.timeZone ?? "UTC";
  const weekStart = (options.weekStart ?? defaults.weekStart ?? "monday") === "sunday" ? 0 : 1;
  const clock = options.now ?? defaults.now;
  const now = clock === undefined ? new Date() : typeof clock === "function" ? clock() : clock;
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new Error("the now() clock returned no valid Date");
  const zoned = new TZDate(now.getTime(), timeZone);
  const today = { year: zoned.getFullYear(), month: zoned.getMonth(), day: zoned.getDate() };
  const instant = (offset: number) => {
    const d = unitStart(today, zoned.getDay(), range.unit, weekStart, offset);
    return new Date(new TZDate(d.year, d.month, d.day, 0, 0, 0, 0, timeZone).getTime());
  };
  switch (range.range) {
    case "current":
      return { start: instant(0), end: instant(1) };
    case "previous":
      return { start: instant(-1), end: instant(0) };
    case "last":
      return { start: instant(1 - range.count), end: instant(1) };
    case "toDate":
      return { start: instant(0), end: new Date(now.getTime()) };
  }
}

function hasDateRange(condition: ConditionNode): boolean {
  switch (condition.kind) {
    case "DateRangeNode":
      return true;
    case "AndConditionNode":
    case "OrConditionNode":
      return condition.conditions.some(hasDateRange);
    case "NotConditionNode":
      return hasDateRange(condition.condition);
    default:
      return false;
  }
}

function resolved(condition: ConditionNode, defaults: DateRangeOptions): ConditionNode {
  switch (condition.kind) {
    case "DateRangeNode": {
      const { start, end } = dateRangeBounds(condition, condition.options, defaults);
      return ConditionNode.and([
        ConditionNode.comparison(condition.field, ">=", start),
        ConditionNode.comparison(condition.field, "<", end),
      ]);
    }
    case "AndConditionNode":
      return ConditionNode.and(condition.conditions.map((c) => resolved(c, defaults)));
    case "OrConditionNode":
      return ConditionNode.or(condition.conditions.map((c) => resolved(c, defaults)));
    case "NotConditionNode":
      return ConditionNode.not(resolved(condition.condition, defaults));
    default:
      return condition;
  }
}

/** The query with each relative date range replaced by its bounds now; the same node when it has none. */
export function resolveDateRanges(node: SemanticQueryNode, defaults: DateRangeOptions = {}): SemanticQueryNode {
  if (node.where === undefined || !hasDateRange(node.where)) return node;
  return SemanticQueryNode.cloneWith(node, { where: resolved(node.where, defaults) });
}
