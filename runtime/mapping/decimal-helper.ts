/**
 * The `Decimal` that `lib` exports is both things the README names with that word: the exact value class
 * (`new Decimal(1250n, 2)`, `Decimal.parse("12.50")`, `value instanceof Decimal`) and, called
 * without `new`, "the `Decimal` schema helper" for `into()` models (`Type.Object({ revenue: Decimal() })`,
 * the same schema as `DecimalType()`). A Proxy adds the call behaviour; construction, statics,
 * `prototype` and `instanceof` all reach the class unchanged.
 */
import { Decimal as DecimalValue } from "../values/decimal.js";
import { DecimalType, type LibTypeOptions, type TDecimal } from "./schema-types.js";

/** `Decimal(options?)`: the TypeBox schema of a `Decimal` property. */
export interface DecimalSchemaHelper {
  (options?: LibTypeOptions): TDecimal;
}

export type DecimalExport = typeof DecimalValue & DecimalSchemaHelper;

export const Decimal: DecimalExport = new Proxy(DecimalValue, {
  apply: (_target, _thisArg, args: readonly unknown[]) => DecimalType(args[0] as LibTypeOptions | undefined),
}) as DecimalExport;

export type Decimal = DecimalValue;
