/**
 * The type-level twin of a builder `ValidationError`. A misused argument is checked against a type no
 * value has, whose name carries the rule in the runtime error's words, so `tsc` prints the rule:
 *
 * ```text
 * Argument of type 'Condition<"sales", "revenue">' is not assignable to parameter of type
 *   'QueryTypeError<"metric 'revenue' cannot be used in where(): filter dimensions and facts, before aggregation">'.
 * ```
 */
declare const QUERY_TYPE_ERROR: unique symbol;

export interface QueryTypeError<Message extends string> {
  readonly [QUERY_TYPE_ERROR]: Message;
}

/** True when `T` is a literal (or a union of literals), false for `string` itself: wide names are not checked. */
export type IsLiteral<T extends string> = string extends T ? false : [T] extends [never] ? false : true;

/** `["a", "b", "c"]` → `"a, b, c"` (a tuple keeps the order a union would lose). */
export type JoinNames<T extends readonly string[]> = T extends readonly [infer H extends string]
  ? H
  : T extends readonly [infer H extends string, ...infer Rest extends readonly string[]]
    ? `${H}, ${JoinNames<Rest>}`
    : T extends readonly []
      ? ""
      : string;

/** `'a'`, or `'a', 'b'` for a union (order not kept; used where one name is the usual case). */
export type Quoted<T extends string> = `'${T}'`;
