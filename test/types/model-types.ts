/**
 * Type-level tests of `into()` models (checked by `tsc --noEmit`; nothing here runs): the TypeScript
 * type of a model property is what arrives at runtime (test/mapping/into.test.ts checks the values).
 */
import { BigIntType, DateType, DecimalType, type Cursor, type Decimal } from "lib";
import { Type, type Static } from "typebox";
import { RevenueByCountry, SalesRow } from "../../generated/index.js";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

// Codegen: 64-bit SUMs are BigIntType() (bigint), never Type.Integer() (number).
assertType<Equals<Static<typeof RevenueByCountry>, { country: string; revenue: bigint }>>();
assertType<Equals<Static<typeof SalesRow>["cost"], bigint>>();

const Model = Type.Object({
  n: Type.Integer(),
  x: Type.Number(),
  big: BigIntType(),
  money: DecimalType(),
  day: DateType(),
});

export async function intoTypes(cursor: Cursor<unknown>): Promise<void> {
  const [row] = await cursor.into(Model);
  if (row === undefined) return;
  assertType<Equals<typeof row.n, number>>();
  assertType<Equals<typeof row.x, number>>();
  assertType<Equals<typeof row.big, bigint>>();
  assertType<Equals<typeof row.money, Decimal>>();
  assertType<Equals<typeof row.day, Date>>();
  const next: number = row.n + 1; // safe: a 64-bit value arrives as a number or fails
  const exact: bigint = row.big + 1n;
  // @ts-expect-error a Type.Integer() property is a number, never a bigint
  const wrong: bigint = row.n;
  // @ts-expect-error bigint and number do not mix
  const mixed = row.big + 1;
  void [next, exact, wrong, mixed];
}
