/**
 * Which TypeBox expression a DTO property gets for each value kind, and what it must import. These
 * follow the cursor's `into()` agreement rules (README "How values arrive"): 8–32-bit integers get
 * `Type.Integer` (number), 64-bit and wider ones `BigIntType()` (bigint, exact at any size), floats
 * `Type.Number`; `DecimalType()`/`DateType()` are the cursor's schema helpers for Decimal and Date values.
 */
import type { ValueKind } from "../../runtime/driver/database-connection.js";

export interface SchemaExpression {
  /** The TypeBox call without options, e.g. `Type.Integer`. */
  readonly call: string;
  /** Extra options merged before `title`. */
  readonly options: readonly string[];
  /** Names imported from "lib" for it. */
  readonly libImports: readonly string[];
}

export function schemaOf(kind: ValueKind): SchemaExpression {
  switch (kind) {
    case "integer":
      return { call: "Type.Integer", options: [], libImports: [] };
    case "bigint":
      return { call: "BigIntType", options: [], libImports: ["BigIntType"] };
    case "float":
      return { call: "Type.Number", options: [], libImports: [] };
    case "decimal":
      return { call: "DecimalType", options: [], libImports: ["DecimalType"] };
    case "string":
      return { call: "Type.String", options: [], libImports: [] };
    case "boolean":
      return { call: "Type.Boolean", options: [], libImports: [] };
    case "date":
    case "timestamp":
      return { call: "DateType", options: [], libImports: ["DateType"] };
    case "other":
      return { call: "Type.Unknown", options: [], libImports: [] };
  }
}
