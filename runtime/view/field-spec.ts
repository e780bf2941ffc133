/**
 * `Metric()`, `Dimension()` and `Fact()`: unbound member declarations. `SemanticView()` turns each
 * into a {@link Field} that knows its name and view. The value type is carried at the type level only.
 */
import type { Decimal } from "../values/decimal.js";
import type { FieldKind } from "../query/operation-node/field-node.js";

declare const SPEC_VALUE: unique symbol;
const SPEC_BRAND = Symbol.for("lib.FieldSpec");

/** Every value type a column can arrive as (README "How values arrive"). */
export type SqlScalar = string | number | bigint | boolean | Date | Decimal;

/** What an aggregate can arrive as: 64-bit sums are bigint, money sums Decimal, averages number. */
export type NumericValue = number | bigint | Decimal;

export interface FieldSpec<K extends FieldKind = FieldKind, T = unknown> {
  readonly fieldKind: K;
  readonly [SPEC_VALUE]: T;
}

function spec<K extends FieldKind, T>(fieldKind: K): FieldSpec<K, T> {
  return Object.freeze({ fieldKind, [SPEC_BRAND]: true }) as unknown as FieldSpec<K, T>;
}

export function isFieldSpec(value: unknown): value is FieldSpec {
  return typeof value === "object" && value !== null && (value as { [SPEC_BRAND]?: unknown })[SPEC_BRAND] === true;
}

/**
 * An aggregated member. `T` is the type its values arrive as; default `number | bigint | Decimal`
 * (narrow it, e.g. `Metric<bigint>()` for a SUM over integers on backends B and C).
 */
// Overloads rather than a defaulted type parameter: inside `SemanticView(...)` a defaulted `T` would
// be inferred from the surrounding `FieldSpec<..., unknown>` context and become `unknown`.
export function Metric(): FieldSpec<"metric", NumericValue>;
export function Metric<T>(): FieldSpec<"metric", T>;
export function Metric(): FieldSpec<"metric", unknown> {
  return spec("metric");
}

/**
 * A grouping member. `T` is the type its values arrive as; default: any scalar
 * (`string | number | bigint | boolean | Date | Decimal`). Add `| null` for nullable columns.
 */
export function Dimension(): FieldSpec<"dimension", SqlScalar>;
export function Dimension<T>(): FieldSpec<"dimension", T>;
export function Dimension(): FieldSpec<"dimension", unknown> {
  return spec("dimension");
}

/** A row-level member (not aggregated). `T` as for {@link Dimension}. */
export function Fact(): FieldSpec<"fact", SqlScalar>;
export function Fact<T>(): FieldSpec<"fact", T>;
export function Fact(): FieldSpec<"fact", unknown> {
  return spec("fact");
}
