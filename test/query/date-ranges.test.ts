/**
 * Relative date ranges (inLast, inCurrent, inPrevious, toDate): property tests of the bounds against an
 * independent oracle, over DST transitions (Europe/Berlin, America/New_York, America/Santiago, whose
 * spring midnight does not exist), half-hour and 45-minute zones (Asia/Kolkata, Australia/Adelaide with
 * DST, Asia/Kathmandu), year ends, leap days and both week starts. The oracle reads wall clocks with
 * Intl.DateTimeFormat only and finds a day's first instant by binary search over instants: no offset
 * arithmetic and no time-zone library in common with the implementation.
 */
import { expect } from "chai";
import fc from "fast-check";
import { BackendCConfig, Dimension, Fact, Metric, SemanticView, ValidationError, createEngine } from "lib";
import type { DateRangeOptions, DateUnit } from "lib";
import { dateRangeBounds } from "../../runtime/query-executor/date-range-bounds.js";

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/Santiago",
  "Asia/Kolkata",
  "Australia/Adelaide",
  "Asia/Kathmandu",
];
const UNITS: DateUnit[] = ["day", "week", "month", "quarter", "year"];

// ---- the oracle ----

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallDate(instant: number, timeZone: string): { year: number; month: number; day: number; weekday: number } {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(parts.weekday!);
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), weekday };
}

/** Days since 1970-01-01 of a calendar date (month 1-based; rolls over like a calendar). */
const dayNumber = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day) / 86_400_000;

/** The first instant whose wall-clock date in `timeZone` is `target` (a day number) or later. */
function firstInstantOf(target: number, timeZone: string): number {
  let lo = target * 86_400_000 - 2 * 86_400_000; // every zone's offset is within ±14 h
  let hi = target * 86_400_000 + 2 * 86_400_000;
  const on = (t: number) => {
    const w = wallDate(t, timeZone);
    return dayNumber(w.year, w.month, w.day) >= target;
  };
  // Transitions and midnights fall on whole minutes: search minutes, then return the minute found.
  lo = Math.floor(lo / 60_000);
  hi = Math.ceil(hi / 60_000);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (on(mid * 60_000)) hi = mid;
    else lo = mid + 1;
  }
  return lo * 60_000;
}

/** The day number of the start of the unit containing `now`'s wall date, shifted by `offset` units. */
function oracleUnitStart(now: number, unit: DateUnit, timeZone: string, weekStart: number, offset: number): number {
  const w = wallDate(now, timeZone);
  switch (unit) {
    case "day":
      return dayNumber(w.year, w.month, w.day) + offset;
    case "week":
      return dayNumber(w.year, w.month, w.day) - ((w.weekday - weekStart + 7) % 7) + 7 * offset;
    case "month":
      return dayNumber(w.year, w.month + offset, 1);
    case "quarter":
      return dayNumber(w.year, w.month - ((w.month - 1) % 3) + 3 * offset, 1);
    case "year":
      return dayNumber(w.year + offset, 1, 1);
  }
}

type Range = "last" | "current" | "previous" | "toDate";
function oracle(range: Range, count: number, unit: DateUnit, timeZone: string, weekStart: number, now: number) {
  const at = (offset: number) => firstInstantOf(oracleUnitStart(now, unit, timeZone, weekStart, offset), timeZone);
  switch (range) {
    case "current":
      return { start: at(0), end: at(1) };
    case "previous":
      return { start: at(-1), end: at(0) };
    case "last":
      return { start: at(1 - count), end: at(1) };
    case "toDate":
      return { start: at(0), end: now };
  }
}

// ---- instants worth testing ----

const ms = (iso: string) => Date.parse(iso);
/** DST transitions (each side), year ends and leap days, as instants. */
const EDGES = [
  "2024-03-31T00:59:59.999Z", // Berlin: the last instant before the spring gap
  "2024-03-31T01:00:00Z",
  "2024-10-27T00:30:00Z", // Berlin: inside the repeated hour (first pass)
  "2024-10-27T01:30:00Z", // (second pass)
  "2024-03-10T06:59:59.999Z", // New York spring forward
  "2024-03-10T07:00:00Z",
  "2024-11-03T05:30:00Z", // New York fall back
  "2024-11-03T06:30:00Z",
  "2024-09-08T03:59:59.999Z", // Santiago: midnight of 2024-09-08 does not exist
  "2024-09-08T04:00:00Z",
  "2024-09-08T12:00:00Z",
  "2024-04-07T03:30:00Z", // Santiago fall back at midnight
  "2024-04-06T14:00:00Z", // Adelaide: the day DST ends (+10:30 -> +09:30)
  "2024-10-05T16:30:00Z", // Adelaide: DST starts
  "2024-12-31T23:59:59.999Z",
  "2025-01-01T00:00:00Z",
  "2024-12-31T18:29:59.999Z", // Kolkata's year end
  "2024-12-31T18:30:00Z",
  "2024-02-29T00:00:00Z",
  "2024-02-29T23:59:59.999Z",
  "2024-03-01T12:00:00Z",
  "2028-02-29T12:00:00Z",
  "2023-02-28T23:00:00Z",
  "2024-01-01T00:00:00Z", // a Monday
  "2023-12-31T00:00:00Z", // a Sunday
].map(ms);

const instant = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.integer({ min: ms("2020-01-01T00:00:00Z"), max: ms("2030-12-31T23:59:59Z") }),
  // Near an edge: a few hours either side.
  fc
    .tuple(fc.constantFrom(...EDGES), fc.integer({ min: -36 * 3_600_000, max: 36 * 3_600_000 }))
    .map(([edge, delta]) => edge + delta),
);

describe("relative date ranges: client-side half-open bounds", function () {
  this.timeout(120_000);

  it("match the independently computed bounds over zones, units, week starts and edge instants", () => {
    fc.assert(
      fc.property(
        instant,
        fc.constantFrom(...ZONES),
        fc.constantFrom(...UNITS),
        fc.constantFrom<Range>("last", "current", "previous", "toDate"),
        fc.integer({ min: 1, max: 14 }),
        fc.constantFrom<"monday" | "sunday">("monday", "sunday"),
        (now, timeZone, unit, range, count, weekStart) => {
          const options: DateRangeOptions = { timeZone, weekStart, now: new Date(now) };
          const got = dateRangeBounds({ range, count, unit }, options);
          const want = oracle(range, count, unit, timeZone, weekStart === "sunday" ? 0 : 1, now);
          expect({ start: got.start.getTime(), end: got.end.getTime() }).to.deep.equal(want);
          // Half-open and containing now (toDate ends at now itself, which it excludes).
          expect(got.start.getTime()).to.be.at.most(now);
          if (range !== "previous" && range !== "toDate") expect(got.end.getTime()).to.be.above(now);
        },
      ),
      { numRuns: 2000, seed: 24 },
    );
  });

  it("spot checks: a DST day is 23 hours, Santiago's day starts at 01:00, Kolkata's at 18:30Z the day before", () => {
    const day = (iso: string, timeZone: string) => {
      const { start, end } = dateRangeBounds(
        { range: "current", count: 1, unit: "day" },
        { timeZone, now: new Date(iso) },
      );
      return [start.toISOString(), end.toISOString()];
    };
    expect(day("2024-03-31T12:00:00Z", "Europe/Berlin")).to.deep.equal([
      "2024-03-30T23:00:00.000Z",
      "2024-03-31T22:00:00.000Z",
    ]);
    expect(day("2024-09-08T12:00:00Z", "America/Santiago")).to.deep.equal([
      "2024-09-08T04:00:00.000Z",
      "2024-09-09T03:00:00.000Z",
    ]);
    expect(day("2024-06-01T00:00:00Z", "Asia/Kolkata")).to.deep.equal([
      "2024-05-31T18:30:00.000Z",
      "2024-06-01T18:30:00.000Z",
    ]);
    const week = (weekStart: "monday" | "sunday") =>
      dateRangeBounds(
        { range: "current", count: 1, unit: "week" },
        { weekStart, now: new Date("2024-01-03T10:00:00Z") },
      ).start.toISOString();
    expect(week("monday")).to.equal("2024-01-01T00:00:00.000Z");
    expect(week("sunday")).to.equal("2023-12-31T00:00:00.000Z");
    const leap = dateRangeBounds(
      { range: "previous", count: 1, unit: "month" },
      { now: new Date("2024-03-01T00:00:00Z") },
    );
    expect([leap.start.toISOString(), leap.end.toISOString()]).to.deep.equal([
      "2024-02-01T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
    ]);
  });

  describe("in queries", () => {
    class Orders extends SemanticView("orders", {
      orderedOn: Dimension<Date>(),
      shippedAt: Fact<Date>(),
      country: Dimension<string>(),
      revenue: Metric<bigint>(),
    }) {}
    const now = new Date("2024-03-15T10:00:00Z");

    it("compile to >= start AND < end on every dialect, the condition's options over the engine's", () => {
      const q = Orders.query()
        .metrics(Orders.revenue)
        .where(Orders.orderedOn.inCurrent("month", { timeZone: "Europe/Berlin", now }));
      expect(q.toSql({ dialect: "backend_c" })).to.contain(
        `where_clause := '"orderedOn" >= TIMESTAMP ''2024-02-29 23:00:00.000'' AND "orderedOn" < TIMESTAMP ''2024-03-31 22:00:00.000'''`,
      );
      const a = q.compile({ dialect: "backend_a" });
      expect(a.sql).to.contain(`WHERE "orderedOn" >= TO_TIMESTAMP_NTZ(?, 3) AND "orderedOn" < TO_TIMESTAMP_NTZ(?, 3))`);
      expect(a.parameters).to.deep.equal([Date.parse("2024-02-29T23:00:00Z"), Date.parse("2024-03-31T22:00:00Z")]);
      const b = q.compile({ dialect: "backend_b" });
      expect(b.sql).to.contain("WHERE `orderedOn` >= ? AND `orderedOn` < ?");
      expect(b.parameters).to.deep.equal([new Date("2024-02-29T23:00:00Z"), new Date("2024-03-31T22:00:00Z")]);
    });

    it("take the engine's defaults, and the clock when the query compiles (not when it was built)", async () => {
      let clock = new Date("2024-03-15T10:00:00Z");
      await using engine = createEngine(new BackendCConfig({ database: ":memory:" }), {
        dateRanges: { timeZone: "Asia/Kolkata", weekStart: "sunday", now: () => clock },
      });
      const q = Orders.query().metrics(Orders.revenue).where(Orders.orderedOn.inPrevious("week")).using(engine);
      expect(q.compile().sql).to.contain(
        `TIMESTAMP ''2024-03-02 18:30:00.000'' AND "orderedOn" < TIMESTAMP ''2024-03-09 18:30:00.000''`,
      );
      clock = new Date("2024-03-25T10:00:00Z");
      expect(q.compile().sql).to.contain(
        `TIMESTAMP ''2024-03-16 18:30:00.000'' AND "orderedOn" < TIMESTAMP ''2024-03-23 18:30:00.000''`,
      );
      // The condition's own option wins over the engine's.
      const utc = Orders.query()
        .metrics(Orders.revenue)
        .where(Orders.shippedAt.toDate("year", { timeZone: "UTC" }))
        .using(engine);
      expect(utc.compile().sql).to.contain(
        `DATE ''2024-01-01'' AND "shippedAt" < TIMESTAMP ''2024-03-25 10:00:00.000''`,
      );
    });

    it("filter real rows on backend C: last 7 days of a Berlin calendar", async () => {
      await using engine = createEngine(
        new BackendCConfig({ database: ":memory:", poolSize: 1, semanticViews: "builtin" }),
        {
          dateRanges: { timeZone: "Europe/Berlin", now: () => now },
        },
      );
      {
        await using conn = await engine.connect();
        await conn.run(
          "CREATE TABLE o (ordered_on TIMESTAMP, amount BIGINT); INSERT INTO o VALUES " +
            "('2024-03-08 22:59:59', 1), ('2024-03-08 23:00:00', 10), ('2024-03-15 09:00:00', 100), ('2024-03-15 23:00:00', 1000)",
        );
        await conn.run(
          `CREATE SEMANTIC VIEW sv AS TABLES (o AS o PRIMARY KEY (ordered_on)) DIMENSIONS (o.ordered_on AS o.ordered_on) METRICS (o.total AS SUM(o.amount))`,
        );
        await conn.commit(); // pooled connections run inside a transaction
      }
      class Sv extends SemanticView("sv", { ordered_on: Dimension<Date>(), total: Metric<bigint>() }) {}
      await using cursor = await Sv.query()
        .metrics(Sv.total)
        .where(Sv.ordered_on.inLast(7, "day"))
        .using(engine)
        .execute();
      // 2024-03-09 00:00 Berlin (23:00Z the day before) up to 2024-03-16 00:00 Berlin, excluded.
      expect(await cursor.fetchAllRows()).to.deep.equal([{ total: 110n }]);
    });

    it("refuse bad arguments with a ValidationError naming the field and option", () => {
      expect(() => Orders.orderedOn.inLast(0, "day")).to.throw(ValidationError, "orders.orderedOn.inLast(): the count");
      expect(() => Orders.orderedOn.inCurrent("fortnight" as DateUnit)).to.throw(ValidationError, '"fortnight"');
      expect(() => Orders.orderedOn.inPrevious("day", { timeZone: "Mars/Olympus" })).to.throw(
        ValidationError,
        '"Mars/Olympus" is not a known IANA time zone',
      );
      expect(() => Orders.orderedOn.toDate("year", { weekStart: "friday" as "monday" })).to.throw(
        ValidationError,
        'weekStart must be "monday" or "sunday"',
      );
      expect(() =>
        createEngine(new BackendCConfig({ database: ":memory:" }), { dateRanges: { timeZone: "x" } }),
      ).to.throw(ValidationError, "createEngine(): dateRanges: timeZone");
    });
  });
});
