/**
 * Per value kind (what a dialect's type table says a column arrives as): the TypeScript type its
 * values have, the schema `lib codegen` emits for it, and the model type `into()` agrees with.
 */
import type { ValueKind } from "../driver/query-result.js";
import type { ModelType } from "./model-type.js";

/** How values of one kind are typed in code. */
export interface KindTyping {
  /** The TypeScript type the values have, e.g. `bigint`, `Decimal`. */
  readonly tsType: string;
  /** The TypeBox schema call codegen emits for it, e.g. `Type.Integer`, `BigIntType`. */
  readonly schema: string;
  /** Options the emitted call always carries (before `title`), e.g. `format: "date"`. */
  readonly schemaOptions?: readonly string[];
  /** Names that schema needs from `lib`. */
  readonly libImports: readonly string[];
  /** What `into()` reads that schema as; `into()` strict agrees with the kind under it. */
  readonly model: ModelType;
}

/** Per value kind: its TypeScript type, the schema codegen emits, and the model type `into()` sees. */
export const KIND_TYPINGS: Readonly<Record<ValueKind, KindTyping>> = Object.freeze({
  integer: { tsType: "number", schema: "Type.Integer", libImports: [], model: "integer" },
  bigint: { tsType: "bigint", schema: "BigIntType", libImports: ["BigIntType"], model: "bigint" },
  decimal: { tsType: "Decimal", schema: "DecimalType", libImports: ["DecimalType"], model: "decimal" },
  float: { tsType: "number", schema: "Type.Number", libImports: [], model: "number" },
  string: { tsType: "string", schema: "Type.String", libImports: [], model: "string" },
  boolean: { tsType: "boolean", schema: "Type.Boolean", libImports: [], model: "boolean" },
  date: {
    tsType: "Date",
    schema: "DateType",
    schemaOptions: ['format: "date"'],
    libImports: ["DateType"],
    model: "date",
  },
  timestamp: { tsType: "Date", schema: "DateType", libImports: ["DateType"], model: "date" },
  other: { tsType: "unknown", schema: "Type.Unknown", libImports: [], model: "unknown" },
});
