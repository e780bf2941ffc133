/**
 * `Metric()`, `Dimension()` and `Fact()`: unbound member declarations. `SemanticView()` turns each
 * into a {@link Field} that knows its name and view. The value type is carried at the type level only.
 */
import type { Decimal } from "../values/decimal.js";
import { ValidationError } from "../errors.js";
import { warehouseNameParts } from "../operation-node/warehouse-name.js";
import type { FieldKind } from "../operation-node/field-node.js";

declare const SPEC_VALUE: unique symbol;
const SPEC_BRAND = Symbol.for("lib.FieldSpec");

/** Every value type a column can arrive as (README "How values arrive"). */
export type SqlScalar = string | number | bigint | boolean | Date | Decimal;

/** What an aggregate can arrive as: 64-bit sums are bigint, money sums Decimal, averages number. */
export type NumericValue = number | bigint | Decimal;

export interface FieldSpec<K extends FieldKind = FieldKind, T = unknown> {
  readonly fieldKind: K;
  /** The member's name in the warehouse, when it differs from the field name ({@link MemberOptions}). */
  readonly warehouseName?: string | undefined;
  readonly [SPEC_VALUE]: T;
}

/**
 * Options of `Metric()`, `Dimension()` and `Fact()`.
 *
 * `name`: the member's name in the warehouse when the field name cannot be it: a name that is not
 * an identifier (`"Total Revenue"`), one qualified by its logical table because several tables
 * share it (`"customer.name"` on backend A, where the dot separates table and member), or a name
 * created quoted in lower case on backend A, written in double quotes so it is sent exactly
 * (`'"revenue"'`; a bare `revenue` means Snowflake's folded `REVENUE`). The field name stays the key
 * of every row; only the SQL refers to `name`.
 */
export interface MemberOptions {
  readonly name?: string | undefined;
}

function spec<K extends FieldKind, T>(fieldKind: K, options: MemberOptions | undefined): FieldSpec<K, T> {
  const warehouseName = options?.name;
  if (warehouseName !== undefined && (typeof warehouseName !== "string" || warehouseName.trim() === "")) {
    throw new ValidationError(
      `${FACTORY_NAMES[fieldKind]}({ name }): name must be a non-empty string, got ${JSON.stringify(warehouseName)}`,
      {
        source: `${FACTORY_NAMES[fieldKind]}()`,
        field: "name",
      },
    );
  }
  if (warehouseName !== undefined) {
    try {
      warehouseNameParts(warehouseName);
    } catch (error) {
      throw new ValidationError(`${FACTORY_NAMES[fieldKind]}({ name }): ${(error as Error).message}`, {
        source: `${FACTORY_NAMES[fieldKind]}()`,
        field: "name",
      });
    }
  }
  return Object.freeze({ fieldKind, warehouseName, [SPEC_BRAND]: true }) as unknown as FieldSpec<K, T>;
}

const FACTORY_NAMES: Readonly<Record<FieldKind, string>> = { metric: "Metric", dimension: "Dimension", fact: "Fact" };

export function isFieldSpec(value: unknown): value is FieldSpec {
  return typeof value === "object" && value !== null && (value as { [SPEC_BRAND]?: unknown })[SPEC_BRAND] === true;
}

/**
 * An aggregated member. `T` is the type its values arrive as; default `number | bigint | Decimal`
 * (narrow it, e.g. `Metric<bigint>()` for a SUM over integers on backends B and C).
 */
// Overloads rather than a defaulted type parameter: inside `SemanticView(...)` a defaulted `T` would
// be inferred from the surrounding `FieldSpec<..., unknown>` context and become `unknown`.
export function Metric(options?: MemberOptions): FieldSpec<"metric", NumericValue>;
export function Metric<T>(options?: MemberOptions): FieldSpec<"metric", T>;
export function Metric(options?: MemberOptions): FieldSpec<"metric", unknown> {
  return spec("metric", options);
}

/**
 * A grouping member. `T` is the type its values arrive as; default: any scalar
 * (`string | number | bigint | boolean | Date | Decimal`). Add `| null` for nullable columns.
 */
export function Dimension(options?: MemberOptions): FieldSpec<"dimension", SqlScalar>;
export function Dimension<T>(options?: MemberOptions): FieldSpec<"dimension", T>;
export function Dimension(options?: MemberOptions): FieldSpec<"dimension", unknown> {
  return spec("dimension", options);
}

/** A row-level member (not aggregated). `T` as for {@link Dimension}. */
export function Fact(options?: MemberOptions): FieldSpec<"fact", SqlScalar>;
export function Fact<T>(options?: MemberOptions): FieldSpec<"fact", T>;
export function Fact(options?: MemberOptions): FieldSpec<"fact", unknown> {
  return spec("fact", options);
}
