/**
 * How a DATE value arrives: a `Date` at UTC midnight whose JSON form is its ISO day (`"2024-02-29"`,
 * JSON Schema's `format: "date"`), not a date-time, so `toJson`, `JSON.stringify`, `res.json()` and
 * the MCP answers write DATE columns as the HTTP answers do. It is a `Date` in every other way
 * (`instanceof Date`, `getTime()`, `toISOString()`); a TIMESTAMP stays a plain `Date`. The class and
 * its prototype are frozen, so binders may trust it as they trust `new Date()` (values/genuine.ts).
 */
import { isoDay } from "./iso-day.js";

export class CalendarDate extends Date {
  /** The ISO day; `null` for an invalid date, as `Date.prototype.toJSON` gives. */
  override toJSON(): string {
    return (Number.isNaN(this.getTime()) ? null : isoDay(this)) as string;
  }
}
Object.freeze(CalendarDate.prototype);
Object.freeze(CalendarDate);

/** The DATE value `days` after 1970-01-01. */
export function calendarDateOfDays(days: number): CalendarDate {
  return new CalendarDate(days * 86_400_000);
}

/** The DATE value of `date`'s UTC day (midnight UTC of that day). */
export function calendarDateOf(date: Date): CalendarDate {
  const ms = date.getTime();
  return new CalendarDate(Number.isNaN(ms) ? Number.NaN : Math.floor(ms / 86_400_000) * 86_400_000);
}
