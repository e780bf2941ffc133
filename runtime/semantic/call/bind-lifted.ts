/**
 * A lifted where_clause literal (lift-where-values.ts) as a value of the type DuckDB resolved for its
 * parameter — only when binding it gives the very answer the literal gives, else undefined (the
 * statement then runs with its literals, as written).
 *
 * DuckDB types a literal by its own form (`'x'` adapts to the other operand, `42` is an integer that
 * fits any integer type it fits, `12.50` is DECIMAL(4,2), `1e3` a DOUBLE) but a parameter by the
 * other operand (`"amount" = $1` makes $1 the amount's type). A value is bound only when it is exactly
 * representable in that type, so the comparison sees the same number, string or instant:
 * - a string in a VARCHAR parameter (not DATE, ENUM, a collation: DuckDB would cast the literal);
 * - a boolean in a BOOLEAN one;
 * - an integer or decimal in an integer or DECIMAL(w,s) parameter when its digits fit (12.50 in
 *   INTEGER only when whole; 12.505 never in DECIMAL(10,2), which would round it);
 * - an integer or decimal in a DOUBLE when the double is the correctly rounded value DuckDB's own
 *   cast yields (|unscaled| ≤ 2^53, scale ≤ 22: one exact division); a double literal only in a DOUBLE;
 * - `DATE '…'`, `TIMESTAMP '…'`, `TIMESTAMPTZ '…'` (lifted as CAST($k AS type)) in their own type,
 *   parsed strictly (YYYY-MM-DD[ HH:MM:SS[.ffffff]][offset]); any other spelling stays a literal.
 *
 * The type text is read once per statement shape (`liftedBinder`: the shape's binding plan keeps one
 * per parameter); a new value then costs only its own checks (an integer in BIGINT: one range test).
 */
import type { BoundParameter, LiftedBinder, LiftedLiteral } from "../semantic-layer.js";

const range = (bits: number, signed: boolean): readonly [bigint, bigint] =>
  signed ? [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n] : [0n, (1n << BigInt(bits)) - 1n];

/** Integer parameter types: their range and whether the driver takes a JS number (else a bigint). */
const INTEGERS = new Map<string, { readonly range: readonly [bigint, bigint]; readonly number: boolean }>([
  ["TINYINT", { range: range(8, true), number: true }],
  ["SMALLINT", { range: range(16, true), number: true }],
  ["INTEGER", { range: range(32, true), number: true }],
  ["BIGINT", { range: range(64, true), number: false }],
  ["HUGEINT", { range: range(128, true), number: false }],
  ["UTINYINT", { range: range(8, false), number: true }],
  ["USMALLINT", { range: range(16, false), number: true }],
  ["UINTEGER", { range: range(32, false), number: true }],
  ["UBIGINT", { range: range(64, false), number: false }],
  ["UHUGEINT", { range: range(128, false), number: false }],
]);
/** Integers DuckDB reads as integer literals (beyond, a literal is no longer an exact integer). */
const LITERAL_LIMIT = (1n << 127n) - 1n;
const EXACT_DOUBLE = 2n ** 53n;
const DECIMAL = /^DECIMAL\((\d+),(\d+)\)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** The temporal literal kind each temporal parameter type takes. */
const TEMPORAL = new Map<string, "date" | "timestamp" | "timestamptz">([
  ["DATE", "date"],
  ["TIMESTAMP", "timestamp"],
  ["TIMESTAMP WITH TIME ZONE", "timestamptz"],
]);

const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** `unscaled / 10^scale` as a value of the parameter's numeric type when exact, else undefined. */
type NumberBinder = (unscaled: bigint, scale: number) => BoundParameter | undefined;

/** The parameter value for `literal` in a parameter of DuckDB type `type`, or undefined. */
export function bindLifted(literal: LiftedLiteral, type: string): BoundParameter | undefined {
  return liftedBinder(type)(literal);
}

/** `bindLifted` for one parameter type, its type text read once (a statement shape's binding plan). */
export function liftedBinder(type: string): LiftedBinder {
  const number = numberBinder(type);
  const temporal = TEMPORAL.get(type);
  return (literal) => {
    switch (literal.kind) {
      case "string":
        return type === "VARCHAR" ? { kind: "varchar", value: literal.value } : undefined;
      case "boolean":
        return type === "BOOLEAN" ? { kind: "boolean", value: literal.value } : undefined;
      case "integer":
        return number !== undefined && abs(literal.value) <= LITERAL_LIMIT ? number(literal.value, 0) : undefined;
      case "decimal":
        return number !== undefined && literal.digits <= 38 ? number(literal.unscaled, literal.scale) : undefined;
      case "double": {
        const value = Number(literal.text);
        return type === "DOUBLE" && Number.isFinite(value) ? { kind: "number", value } : undefined;
      }
      case "date": {
        if (temporal !== "date") return undefined;
        const m = DATE.exec(literal.text.trim());
        const ms = m === null ? undefined : utcMillis(m, 0);
        return ms === undefined ? undefined : { kind: "date", days: ms / 86_400_000 };
      }
      case "timestamp":
      case "timestamptz": {
        const m = temporal === literal.kind ? TIMESTAMP.exec(literal.text.trim()) : null;
        // A TIMESTAMP literal with an offset, or a TIMESTAMPTZ one without, is DuckDB's to interpret.
        if (m === null || (m[8] !== undefined) !== (literal.kind === "timestamptz")) return undefined;
        const ms = utcMillis(m, offsetMinutes(m[8]));
        if (ms === undefined) return undefined;
        const micros = BigInt(ms) * 1000n + BigInt((m[7] ?? "").padEnd(6, "0").slice(3) || "0");
        return { kind: literal.kind, micros };
      }
    }
  };
}

/** How an integer or decimal literal binds into a parameter of `type`: integer, DECIMAL(w,s), DOUBLE, or not at all. */
function numberBinder(type: string): NumberBinder | undefined {
  const integer = INTEGERS.get(type);
  if (integer !== undefined) {
    const [min, max] = integer.range;
    return (unscaled, scale) => {
      let value = unscaled;
      if (scale > 0) {
        const factor = 10n ** BigInt(scale);
        if (unscaled % factor !== 0n) return undefined;
        value = unscaled / factor;
      }
      if (value < min || value > max) return undefined;
      return integer.number ? { kind: "number", value: Number(value) } : { kind: "bigint", value };
    };
  }
  const decimal = DECIMAL.exec(type);
  if (decimal !== null) {
    const width = Number(decimal[1]);
    const target = Number(decimal[2]);
    const limit = 10n ** BigInt(width);
    return (unscaled, scale) => {
      let value: bigint;
      if (target >= scale) value = unscaled * 10n ** BigInt(target - scale);
      else {
        const factor = 10n ** BigInt(scale - target);
        if (unscaled % factor !== 0n) return undefined;
        value = unscaled / factor;
      }
      if (abs(value) >= limit) return undefined;
      return { kind: "decimal", unscaled: value, width, scale: target };
    };
  }
  if (type === "DOUBLE") {
    return (unscaled, scale) =>
      abs(unscaled) <= EXACT_DOUBLE && scale <= 22
        ? { kind: "number", value: Number(unscaled) / 10 ** scale }
        : undefined;
  }
  return undefined;
}

/** Milliseconds since the epoch of a matched date (and time), or undefined for a date that does not exist. */
function utcMillis(m: RegExpExecArray, offset: number): number | undefined {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((m[7] ?? "").padEnd(3, "0").slice(0, 3) || "0"));
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return undefined;
  return date.getTime() - offset * 60_000;
}

/** Minutes east of UTC of `Z`, `+02`, `-05:30`, `+0530`. */
function offsetMinutes(text: string | undefined): number {
  if (text === undefined || text === "Z") return 0;
  const digits = text.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return text.startsWith("-") ? -minutes : minutes;
}
