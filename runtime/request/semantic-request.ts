/**
 * The shape of a request: what HTTP bodies, query strings and MCP tool calls carry. Only names and
 * values: every identifier must be a member the view declares, and no text in a request ever becomes
 * SQL except as a bound parameter or an escaped literal.
 */

/** The builder's condition methods (`Sales.country.eq(...)`), by name. */
export const CONDITION_OPERATORS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "notIn",
  "between",
  "like",
  "startsWith",
  "endsWith",
  "contains",
  "isNull",
  "isNotNull",
] as const;

export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** One comparison: `{ "field": "country", "op": "eq", "value": "DE" }`. */
export interface ComparisonJson {
  readonly field: string;
  readonly op: ConditionOperator;
  /** eq/ne: a value or null (IS NULL); in/notIn: a list; between: [low, high]; like/startsWith/...: text; isNull/isNotNull: none. */
  readonly value?: unknown;
}

/** A condition tree: comparisons combined with `and`, `or` and `not`. */
export type WhereJson =
  | ComparisonJson
  | { readonly and: readonly WhereJson[] }
  | { readonly or: readonly WhereJson[] }
  | { readonly not: WhereJson };

export interface OrderByJson {
  readonly field: string;
  readonly direction?: "asc" | "desc";
  readonly nulls?: "first" | "last";
}

export interface SemanticRequest {
  /** The declared view name (`sales`); taken from the URL on HTTP. */
  readonly view?: string;
  readonly metrics?: readonly string[];
  readonly dimensions?: readonly string[];
  readonly facts?: readonly string[];
  /** One condition, or a list that is ANDed. */
  readonly where?: WhereJson | readonly WhereJson[];
  /** `"revenue"` (ascending), `"-revenue"` or `"revenue:desc"` (descending), or `{ field, direction, nulls }`. */
  readonly orderBy?: readonly (string | OrderByJson)[];
  readonly limit?: number;
  readonly offset?: number;
  /**
   * Values for the view's variables (`Variable<T>()`: backend A's semantic-view VARIABLES, backend
   * B's metric-view parameters), by declared name; bound as parameters. Required for a variable the
   * view gives no default. Backend C has no variables.
   */
  readonly variables?: Readonly<Record<string, unknown>>;
}

/** The top-level keys a request may have. */
export const REQUEST_KEYS: readonly (keyof SemanticRequest)[] = Object.freeze([
  "view",
  "metrics",
  "dimensions",
  "facts",
  "where",
  "orderBy",
  "limit",
  "offset",
  "variables",
]);
