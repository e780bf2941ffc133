/**
 * TypeBox schema helpers for the value types `lib` delivers that JSON Schema has no word for:
 * `Decimal`, `bigint` and `Date`. Use them in `into()` models (`Type.Object({ revenue: DecimalType() })`).
 * Each schema carries an `x-lib-type` marker (how `into()` recognises it) and a TypeBox refinement, so
 * TypeBox's own `Compile(...)`/`Value.Check(...)` accept exactly the runtime values `lib` produces.
 */
import type { TSchema, TUnsafe } from "typebox";
import { typebox } from "./typebox.js";
import { Decimal } from "../values/decimal.js";
import { isUtcMidnight } from "../values/iso-day.js";

/** The marker key `lib` puts on its own schemas. */
export const LIB_TYPE_KEY = "x-lib-type";

export type LibTypeName = "decimal" | "bigint" | "date";

/** Annotations TypeBox passes through (title, description, examples, ...). */
export interface LibTypeOptions {
  readonly title?: string;
  readonly description?: string;
  readonly [annotation: string]: unknown;
}

/** A `lib` schema for a `Decimal` property. `Static<>` of it is `Decimal`. */
export type TDecimal = TUnsafe<Decimal>;
/** A `lib` schema for a `Date` property. `Static<>` of it is `Date`. */
export type TDate = TUnsafe<Date>;
/** A `lib` schema for a `bigint` property. `Static<>` of it is `bigint`. */
export type TBigIntValue = TUnsafe<bigint>;

function libType<T>(
  name: LibTypeName,
  options: LibTypeOptions,
  check: (value: unknown) => boolean,
  what: string,
): TUnsafe<T> {
  const { Type } = typebox();
  const schema = Type.Unsafe<T>({ ...options, [LIB_TYPE_KEY]: name } as unknown as TSchema);
  return Type.Refine(schema, check as (value: T) => boolean, () => `expected ${what}`) as unknown as TUnsafe<T>;
}

/** Schema of an exact decimal (money) property: values are `Decimal`. */
export function DecimalType(options: LibTypeOptions = {}): TDecimal {
  return libType<Decimal>("decimal", options, (v) => Decimal.isDecimal(v), "a Decimal");
}

/** Schema of a 64-bit-or-wider integer property: values are `bigint`. */
export function BigIntType(options: LibTypeOptions = {}): TBigIntValue {
  return libType<bigint>("bigint", options, (v) => typeof v === "bigint", "a bigint");
}

/** `DateType()` options: JSON Schema's `format` says whether the values are instants or calendar dates. */
export interface DateTypeOptions extends LibTypeOptions {
  /**
   * `"date-time"` (the default): a TIMESTAMP's instants. `"date"`: a DATE column's calendar days, which
   * `lib` delivers as the day's first instant in UTC; a Date at any other time of day is refused.
   */
  readonly format?: "date" | "date-time" | undefined;
}

const isValidDate = (v: unknown): v is Date => v instanceof Date && !Number.isNaN(v.getTime());

/** Schema of a timestamp property, or with `{ format: "date" }` of a date property: values are valid `Date` objects. */
export function DateType(options: DateTypeOptions = {}): TDate {
  if (options.format === "date") {
    const day = (v: unknown) => isValidDate(v) && isUtcMidnight(v);
    return libType<Date>("date", options, day, "a valid Date at midnight UTC (a calendar date)");
  }
  if (options.format !== undefined && options.format !== "date-time") {
    throw new TypeError(`DateType({ format }): "date" or "date-time", got ${JSON.stringify(options.format)}`);
  }
  return libType<Date>("date", options, isValidDate, "a valid Date");
}

/**
 * The same helpers under one name, so a model reads like the README: `LibType.Decimal()` is "the Decimal
 * schema helper exported by lib" (the bare name `Decimal` is the value class).
 */
export const LibType = Object.freeze({ Decimal: DecimalType, BigInt: BigIntType, Date: DateType });

/** Which `lib` value type a schema stands for, if it is one of ours. */
export function libTypeOf(schema: unknown): LibTypeName | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const marker = (schema as Record<string, unknown>)[LIB_TYPE_KEY];
  return marker === "decimal" || marker === "bigint" || marker === "date" ? marker : undefined;
}
