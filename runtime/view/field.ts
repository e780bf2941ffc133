/**
 * A declared member bound to its view: `Sales.country`. It builds conditions (`eq`, `in`, ...) and
 * orderings (`asc`, `desc`) as frozen operation nodes. Values are checked here, so a bad value fails
 * where it was written, naming the field.
 */
import { ValidationError } from "../errors.js";
import type { Decimal } from "../values/decimal.js";
import { conditionOf, type Condition } from "../query/condition.js";
import { orderingOf, type Ordering, type OrderingOptions } from "../query/ordering.js";
import { ConditionNode, escapeLikeText, type ComparisonOperator } from "../operation-node/condition-node.js";
import { FieldNode, type FieldKind } from "../operation-node/field-node.js";
import { describeInvalidFilterValue, snapshotFilterValue, type FilterValue } from "../operation-node/filter-value.js";
import { OrderingNode } from "../operation-node/ordering-node.js";
import {
  createDateRangeNode,
  dateRangeOptionsProblem,
  dateRangeProblem,
  type DateRangeKind,
  type DateRangeOptions,
  type DateUnit,
} from "../operation-node/date-range-node.js";
import type { QueryTypeError } from "../query/query-type-error.js";

declare const FIELD_VALUE: unique symbol;

/**
 * The values a condition on a field of type `T` accepts: string types as declared (literal unions
 * kept), any numeric for numeric types (a bigint column compares with a number), booleans, Dates.
 */
export type ValueInput<T> = T extends string
  ? T
  : T extends number | bigint | Decimal
    ? number | bigint | Decimal
    : T extends boolean
      ? boolean
      : T extends Date
        ? Date
        : never;

/**
 * A relative date range takes a Date member; on a member of another value type its first argument is
 * branded with the rule (still a subtype of `A`, so every field stays assignable to `AnyField`). `T` is
 * only ever the checked type here, which keeps `Field` covariant in it.
 */
type ForDates<T, A, Method extends string, What extends string = "a relative date range"> = [T] extends [Date | null]
  ? A
  : [T] extends [string | number | bigint | boolean | Decimal | null]
    ? A & QueryTypeError<`${Method}() takes a Date dimension or fact (${What})`>
    : A;

/** The metric names a condition on this field references: its own name for a metric, none otherwise. */
type MetricName<K extends FieldKind, N extends string> = K extends "metric" ? N : never;

export interface Field<
  K extends FieldKind = FieldKind,
  T = unknown,
  N extends string = string,
  V extends string = string,
> {
  /** `"metric"`, `"dimension"` or `"fact"`. */
  readonly kind: K;
  /** The field name: the member name, and the alias of its output column. */
  readonly name: N;
  /** The member's name in the warehouse: the field name, unless declared with `{ name: "..." }`. */
  readonly warehouseName: string;
  /** The declared name of the view it belongs to. */
  readonly viewName: V;
  /** The operation node the compilers see. */
  readonly node: FieldNode;
  /** Type-level only: the type its values arrive as. */
  readonly [FIELD_VALUE]: T;

  /** `= value`; `eq(null)` means IS NULL. */
  eq(value: ValueInput<T> | null): Condition<V, MetricName<K, N>>;
  /** `<> value`; `ne(null)` means IS NOT NULL. */
  ne(value: ValueInput<T> | null): Condition<V, MetricName<K, N>>;
  gt(value: ValueInput<T>): Condition<V, MetricName<K, N>>;
  gte(value: ValueInput<T>): Condition<V, MetricName<K, N>>;
  lt(value: ValueInput<T>): Condition<V, MetricName<K, N>>;
  lte(value: ValueInput<T>): Condition<V, MetricName<K, N>>;
  /** `IN (...)`; an empty list matches nothing; a `null` in the list also matches NULL. */
  in(values: readonly (ValueInput<T> | null)[]): Condition<V, MetricName<K, N>>;
  /** `NOT IN (...)`; an empty list matches everything; a `null` in the list also excludes NULL. */
  notIn(values: readonly (ValueInput<T> | null)[]): Condition<V, MetricName<K, N>>;
  /** `BETWEEN low AND high` (both ends included). */
  between(low: ValueInput<T>, high: ValueInput<T>): Condition<V, MetricName<K, N>>;
  /** `LIKE pattern`: `%` and `_` are wildcards, a backslash makes the next character literal (on every backend). */
  like(pattern: string): Condition<V, MetricName<K, N>>;
  /** Starts with `text`, taken literally (`%`, `_` escaped). */
  startsWith(text: string): Condition<V, MetricName<K, N>>;
  /** Ends with `text`, taken literally. */
  endsWith(text: string): Condition<V, MetricName<K, N>>;
  /** Contains `text`, taken literally. */
  contains(text: string): Condition<V, MetricName<K, N>>;
  /**
   * The current `unit` and the `count - 1` before it, whole units on the zone's calendar: `>= start AND <
   * end`, computed when the query compiles (`inLast(7, "day")`: today and the six days before).
   */
  inLast(
    count: ForDates<T, number, "inLast">,
    unit: DateUnit,
    options?: DateRangeOptions,
  ): Condition<V, MetricName<K, N>>;
  /** The current `unit` (`inCurrent("month")`: this month, from its first instant to the next month's). */
  inCurrent(unit: ForDates<T, DateUnit, "inCurrent">, options?: DateRangeOptions): Condition<V, MetricName<K, N>>;
  /** The `unit` before the current one (`inPrevious("quarter")`: last quarter). */
  inPrevious(unit: ForDates<T, DateUnit, "inPrevious">, options?: DateRangeOptions): Condition<V, MetricName<K, N>>;
  /** From the start of the current `unit` up to now (`toDate("year")`: year to date). */
  toDate(unit: ForDates<T, DateUnit, "toDate">, options?: DateRangeOptions): Condition<V, MetricName<K, N>>;
  /**
   * `>= start AND < end`: the half-open range from `start` up to `end`, excluded, the same on every
   * backend (`between()` stays SQL's BETWEEN, both ends included). `end` may equal `start` (matches nothing).
   */
  inRange(start: ForDates<T, Date, "inRange", "a half-open date range">, end: Date): Condition<V, MetricName<K, N>>;
  isNull(): Condition<V, MetricName<K, N>>;
  isNotNull(): Condition<V, MetricName<K, N>>;
  asc(options?: OrderingOptions): Ordering<V, N>;
  desc(options?: OrderingOptions): Ordering<V, N>;
}

export type AnyField<V extends string = string> = Field<FieldKind, unknown, string, V>;
export type MetricField<V extends string = string> = Field<"metric", unknown, string, V>;
export type DimensionField<V extends string = string> = Field<"dimension", unknown, string, V>;
export type FactField<V extends string = string> = Field<"fact", unknown, string, V>;

/** The value type a field's column arrives as. */
export type FieldValueType<F> = F extends { readonly [FIELD_VALUE]: infer T } ? T : never;

const FIELD_BRAND = Symbol.for("lib.Field");

export function isField(value: unknown): value is AnyField {
  return typeof value === "object" && value !== null && (value as { [FIELD_BRAND]?: unknown })[FIELD_BRAND] === true;
}

/** Builds the bound field object (frozen). */
export function createField<K extends FieldKind, T, N extends string, V extends string>(
  viewName: V,
  name: N,
  kind: K,
  warehouseName: string = name,
): Field<K, T, N, V> {
  const node = FieldNode.create(viewName, name, kind, warehouseName);
  const label = `${viewName}.${name}`;

  const value = (method: string, v: unknown): FilterValue => {
    const problem = describeInvalidFilterValue(v);
    if (problem !== undefined) {
      throw new ValidationError(`${label}.${method}(): ${problem}`, { source: `${label}.${method}()`, field: name });
    }
    return snapshotFilterValue(v as FilterValue);
  };
  const text = (method: string, v: unknown): string => {
    if (typeof v !== "string") {
      throw new ValidationError(`${label}.${method}(): expected a string, got ${v === null ? "null" : typeof v}`, {
        source: `${label}.${method}()`,
        field: name,
      });
    }
    return v;
  };
  const compare = (method: string, operator: ComparisonOperator, v: unknown) =>
    conditionOf<V, MetricName<K, N>>(ConditionNode.comparison(node, operator, value(method, v)));
  const list = (method: string, values: unknown, negated: boolean) => {
    if (!Array.isArray(values)) {
      throw new ValidationError(`${label}.${method}(): expected an array of values`, {
        source: `${label}.${method}()`,
        field: name,
      });
    }
    const present: FilterValue[] = []; // one array, no closures: the node takes it (ConditionNode.inList)
    for (let i = 0; i < values.length; i++) if (values[i] !== null) present.push(value(method, values[i]));
    const inList = ConditionNode.inList(node, present, negated);
    if (present.length === values.length) return conditionOf<V, MetricName<K, N>>(inList);
    // SQL's IN never matches NULL; a null in the list means "or IS NULL" (eq(null) semantics).
    const nullCheck = ConditionNode.nullCheck(node, negated);
    if (present.length === 0) return conditionOf<V, MetricName<K, N>>(nullCheck);
    return conditionOf<V, MetricName<K, N>>(
      negated ? ConditionNode.and([inList, nullCheck]) : ConditionNode.or([inList, nullCheck]),
    );
  };
  const dateRange = (method: string, range: DateRangeKind, count: unknown, unit: unknown, options: unknown) => {
    const problem = dateRangeProblem(range, count, unit) ?? dateRangeOptionsProblem(options);
    if (problem !== undefined) {
      throw new ValidationError(`${label}.${method}(): ${problem}`, { source: `${label}.${method}()`, field: name });
    }
    const rangeNode = createDateRangeNode(node, range, count as number, unit as DateUnit, options as DateRangeOptions);
    return conditionOf<V, MetricName<K, N>>(rangeNode);
  };
  const instant = (argument: "start" | "end", v: unknown): Date => {
    if (!(v instanceof Date) || Number.isNaN(v.getTime())) {
      const got = v instanceof Date ? "an invalid Date" : v === null ? "null" : typeof v;
      throw new ValidationError(`${label}.inRange(): ${argument} must be a valid Date, got ${got}`, {
        source: `${label}.inRange()`,
        field: name,
      });
    }
    return new Date(v.getTime());
  };
  const inRange = (startValue: unknown, endValue: unknown) => {
    const start = instant("start", startValue);
    const end = instant("end", endValue);
    if (end.getTime() < start.getTime()) {
      throw new ValidationError(
        `${label}.inRange(): end (${end.toISOString()}) is before start (${start.toISOString()}); swap the arguments`,
        { source: `${label}.inRange()`, field: name },
      );
    }
    return conditionOf<V, MetricName<K, N>>(
      ConditionNode.and([ConditionNode.comparison(node, ">=", start), ConditionNode.comparison(node, "<", end)]),
    );
  };
  const like = (pattern: string, escaped: boolean) =>
    conditionOf<V, MetricName<K, N>>(ConditionNode.like(node, pattern, escaped));
  // Orderings are frozen and hold nothing but the field, direction and nulls: one object per combination
  // (a query built per request allocates none for its `.desc()`).
  const orderings = new Map<string, Ordering<V, N>>();
  const ordering = (method: string, direction: "asc" | "desc", options: OrderingOptions | undefined) => {
    const nulls = options?.nulls;
    if (nulls !== undefined && nulls !== "first" && nulls !== "last") {
      throw new ValidationError(`${label}.${method}(): nulls must be "first" or "last", got ${String(nulls)}`, {
        source: `${label}.${method}()`,
        field: name,
      });
    }
    const key = nulls === undefined ? direction : `${direction} ${nulls}`;
    let made = orderings.get(key);
    if (made === undefined) orderings.set(key, (made = orderingOf<V, N>(OrderingNode.create(node, direction, nulls))));
    return made;
  };

  const field = {
    kind,
    name,
    warehouseName,
    viewName,
    node,
    [FIELD_BRAND]: true,
    eq: (v: unknown) => (v === null ? conditionOf(ConditionNode.nullCheck(node, false)) : compare("eq", "=", v)),
    ne: (v: unknown) => (v === null ? conditionOf(ConditionNode.nullCheck(node, true)) : compare("ne", "<>", v)),
    gt: (v: unknown) => compare("gt", ">", v),
    gte: (v: unknown) => compare("gte", ">=", v),
    lt: (v: unknown) => compare("lt", "<", v),
    lte: (v: unknown) => compare("lte", "<=", v),
    in: (values: unknown) => list("in", values, false),
    notIn: (values: unknown) => list("notIn", values, true),
    between: (low: unknown, high: unknown) =>
      conditionOf(ConditionNode.between(node, value("between", low), value("between", high))),
    like: (pattern: unknown) => like(text("like", pattern), false),
    startsWith: (t: unknown) => like(`${escapeLikeText(text("startsWith", t))}%`, true),
    endsWith: (t: unknown) => like(`%${escapeLikeText(text("endsWith", t))}`, true),
    contains: (t: unknown) => like(`%${escapeLikeText(text("contains", t))}%`, true),
    inLast: (count: unknown, unit: unknown, options?: unknown) => dateRange("inLast", "last", count, unit, options),
    inCurrent: (unit: unknown, options?: unknown) => dateRange("inCurrent", "current", 1, unit, options),
    inPrevious: (unit: unknown, options?: unknown) => dateRange("inPrevious", "previous", 1, unit, options),
    toDate: (unit: unknown, options?: unknown) => dateRange("toDate", "toDate", 1, unit, options),
    inRange,
    isNull: () => conditionOf(ConditionNode.nullCheck(node, false)),
    isNotNull: () => conditionOf(ConditionNode.nullCheck(node, true)),
    asc: (options?: OrderingOptions) => ordering("asc", "asc", options),
    desc: (options?: OrderingOptions) => ordering("desc", "desc", options),
    toString: () => label,
  };
  return Object.freeze(field) as unknown as Field<K, T, N, V>;
}
