import { expect } from "chai";
import { Decimal } from "../../runtime/values/decimal.js";
import { withDayFields } from "../../runtime/values/day-columns.js";
import { toJson } from "../../runtime/values/json.js";
import { referenceToJson } from "../support/reference-json.js";
import { HOSTILE_VALUES } from "../support/hostile-values.js";

/** Seeded (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Every character JSON escapes or may trip a fast path: controls, quotes, surrogates (paired and lone), separators. */
const CHARACTERS = [
  ...Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)),
  "\u2028",
  "\u2029",
  "\u00e9",
  "\ufeff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ud83d\ude42",
  "\uffff",
];

const STRINGS = [
  ...HOSTILE_VALUES,
  ...CHARACTERS,
  ...CHARACTERS.map((c) => `a${c}b`),
  "\ud83d",
  "x\ude42",
  "\ude42\ud83d",
  "ends with lone \ud800",
];

const NUMBERS = [0, -0, 1, -1, 1.5, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53, NaN, Infinity, -Infinity];
const BIGINTS = [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 10n ** 40n, -(10n ** 38n) + 1n];
const DECIMALS = ["0", "-0.05", "7.50", "12345678901234567890.123456789", "1e-3", "-99999999999999999999.99"].map(
  (text) => Decimal.parse(text),
);
const DATES = [new Date(0), new Date("2024-02-29T23:59:59.999Z"), new Date(-62198755200000), new Date(Number.NaN)];

function scalar(next: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  switch (Math.floor(next() * 12)) {
    case 0:
    case 1:
      return pick(STRINGS);
    case 2:
      return pick(NUMBERS);
    case 3:
      return pick(BIGINTS);
    case 4:
      return pick(DECIMALS);
    case 5:
      return new Date(pick(DATES).getTime());
    case 6:
      return pick([true, false, null, undefined]);
    case 7:
      return pick([() => 1, Symbol("s"), new Number(2.5), new String("b\u0000x"), new Boolean(false), Object(7n)]);
    case 8:
      return pick([
        { toJSON: (key: string) => `key:${key}` },
        { toJSON: () => 10n ** 20n },
        { toJSON: () => Decimal.parse("-1.10") },
        { toJSON: () => undefined },
        { toJSON: () => ({ nested: [1n, null] }) },
        new Map([["a", 1]]),
        new Set([1]),
      ]);
    default:
      return pick(STRINGS.slice(0, 40));
  }
}

/** A value of up to `depth` levels: rows (marked with day fields or not), arrays, objects with odd keys. */
function value(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth === 0 || roll < 0.35) return scalar(next);
  const size = Math.floor(next() * 6);
  if (roll < 0.55) return Array.from({ length: size }, () => value(next, depth - 1));
  if (roll < 0.75) {
    const keys = ["country", "revenue", "sold_on", "when", ...STRINGS.slice(0, 60)];
    const rows = Array.from({ length: size }, () => {
      const row: Record<string, unknown> = {};
      for (const key of keys.slice(0, 2 + Math.floor(next() * 4))) row[key] = scalar(next);
      if (next() < 0.2) Object.defineProperty(row, "__proto__", { value: scalar(next), enumerable: true });
      return row;
    });
    return next() < 0.6 ? withDayFields(rows, ["sold_on", "revenue"]) : rows;
  }
  const record: Record<string, unknown> = next() < 0.2 ? Object.create(null) : {};
  for (let k = 0; k < size; k++)
    record[k % 2 === 0 ? String(k) : STRINGS[Math.floor(next() * STRINGS.length)]!] = value(next, depth - 1);
  return record;
}

describe("toJson: the rewritten writer writes exactly what the previous one wrote", () => {
  it("for every character, string, number, bigint, Decimal, date and container in a seeded corpus, at every indentation", () => {
    const next = random(20_261_127);
    const corpus: unknown[] = [...STRINGS, ...NUMBERS, ...BIGINTS, ...DECIMALS, ...DATES];
    for (let i = 0; i < 300; i++) corpus.push(value(next, 3));
    let compared = 0;
    for (const item of corpus) {
      for (const space of [undefined, 2, "--------------x"]) {
        let expected: string | Error;
        try {
          expected = referenceToJson(item, space);
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) {
          expect(() => toJson(item, space)).to.throw(TypeError, expected.message);
          continue;
        }
        const actual = toJson(item, space);
        if (actual !== expected) expect(actual, `${String(compared)}: ${referenceToJson(item)}`).to.equal(expected);
        compared++;
      }
    }
    expect(compared).to.be.greaterThan(1200);
  });

  it("writes member names at and past the remembered length alike (128 and 129 characters, with escapes)", () => {
    for (const length of [127, 128, 129, 5000]) {
      const plain = "k".repeat(length);
      const escaped = `"\u2028\ud800${"é".repeat(length)}`;
      const record = { [plain]: 1n, [escaped]: [Decimal.parse("1.50")], [plain.toUpperCase()]: null };
      // Twice: the first write may remember a name, the second reads it back.
      for (let i = 0; i < 2; i++) expect(toJson(record)).to.equal(referenceToJson(record));
    }
  });

  it("throws the same error on cycles and omits what JSON omits", () => {
    const cycle: Record<string, unknown> = { rows: [] };
    (cycle["rows"] as unknown[]).push({ up: cycle });
    expect(() => toJson(cycle)).to.throw(TypeError, "Converting circular structure to JSON");
    for (const top of [undefined, () => 1, Symbol("x")]) expect(() => toJson(top)).to.throw(TypeError, /no JSON form/);
    expect(toJson({ a: undefined, b: () => 1, c: Symbol("c") })).to.equal("{}");
    expect(toJson({ a: undefined }, 2)).to.equal(referenceToJson({ a: undefined }, 2));
  });
});
