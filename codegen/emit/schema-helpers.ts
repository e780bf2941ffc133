/**
 * Which TypeBox expression a DTO property gets for each value kind, and what it must import. These
 * follow the cursor's `into()` agreement rules (README "How values arrive"): 8–32-bit integers get
 * `Type.Integer` (number), 64-bit and wider ones `BigIntType()` (bigint, exact at any size), floats
 * `Type.Number`; `DecimalType()`/`DateType()` are the cursor's schema helpers for Decimal and Date values.
 * The choice per kind is `KIND_TYPINGS`, which `into()` reads its agreement rules from too.
 */
import type { ValueKind } from "../../runtime/index.js";
import { KIND_TYPINGS } from "../../runtime/internal.js";

export interface SchemaExpression {
  /** The TypeBox call without options, e.g. `Type.Integer`. */
  readonly call: string;
  /** Extra options merged before `title`. */
  readonly options: readonly string[];
  /** Names imported from "lib" for it. */
  readonly libImports: readonly string[];
}

export function schemaOf(kind: ValueKind): SchemaExpression {
  const typing = KIND_TYPINGS[kind];
  return { call: typing.schema, options: typing.schemaOptions ?? [], libImports: typing.libImports };
}
