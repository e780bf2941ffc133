/**
 * The ISO day (`2024-02-29`) of a DATE value, as JSON Schema's `format: "date"` has it: from a `Date`
 * at UTC midnight (how DATE values arrive), or straight from a count of days since 1970-01-01 (how
 * columnar chunks hold them) without making a `Date`. Years beyond 9999 or before 0 keep ISO's sign
 * and six digits (`+010000-01-01`), as `Date.prototype.toISOString` writes them.
 */

const MS_PER_DAY = 86_400_000;

/** Whether a Date is at midnight UTC: how a calendar day (a DATE value) arrives as a `Date`. */
export function isUtcMidnight(date: Date): boolean {
  return date.getTime() % MS_PER_DAY === 0;
}

/** `2024-02-29` for a valid `Date` (its UTC day). */
export function isoDay(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(0, iso.indexOf("T"));
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

/**
 * The ISO day of `days` since 1970-01-01, or undefined when that day is outside what a `Date` can hold
 * (DuckDB's `infinity` dates, for one). Civil-from-days arithmetic (H. Hinnant's algorithm) for years
 * 0–9999; other years go through `Date`, for its extended-year form.
 */
export function isoDayOfEpochDays(days: number): string | undefined {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year >= 1000 && year <= 9999) return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
  const date = new Date(days * MS_PER_DAY);
  return Number.isNaN(date.getTime()) ? undefined : isoDay(date);
}
