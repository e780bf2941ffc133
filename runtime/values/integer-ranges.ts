/**
 * Integer ranges of the places a value is bound or written, so that a value the backend cannot
 * hold exactly fails as a ValidationError naming it, instead of wrapping, turning into a float or
 * failing later in the warehouse.
 */
export interface IntegerRange {
  /** How the backend names the type, for messages. */
  readonly name: string;
  readonly min: bigint;
  readonly max: bigint;
}

/** 64-bit: DuckDB BIGINT, Databricks BIGINT (how a bigint parameter binds there). */
export const INT64: IntegerRange = Object.freeze({ name: "BIGINT", min: -(2n ** 63n), max: 2n ** 63n - 1n });
/** DuckDB HUGEINT: beyond it DuckDB reads an integer literal as UHUGEINT or DOUBLE (2^127 would match 2^127-1). */
export const INT128: IntegerRange = Object.freeze({ name: "HUGEINT", min: -(2n ** 127n), max: 2n ** 127n - 1n });
/** 38 decimal digits: Snowflake NUMBER(38,0), Databricks DECIMAL(38,0). */
export const DIGITS38: IntegerRange = Object.freeze({
  name: "a 38-digit NUMBER/DECIMAL",
  min: -(10n ** 38n - 1n),
  max: 10n ** 38n - 1n,
});

export function inRange(value: bigint, range: IntegerRange): boolean {
  return value >= range.min && value <= range.max;
}

/** Why a bigint does not fit `range` on `dialectName`, or undefined. */
export function integerProblem(value: bigint, range: IntegerRange, dialectName: string): string | undefined {
  if (inRange(value, range)) return undefined;
  return `${value}n is outside ${dialectName}'s ${range.name} range (${range.min} to ${range.max}), so it cannot be compared exactly`;
}

/** Why a number is not a value any backend can take exactly (NaN, ±Infinity, -0), or undefined. */
export function inexactNumberProblem(value: number): string | undefined {
  if (!Number.isFinite(value)) return `${value} is not a finite number`;
  if (Object.is(value, -0)) return "-0 would be sent as 0 (SQL literals and binds have no negative zero); pass 0";
  return undefined;
}
