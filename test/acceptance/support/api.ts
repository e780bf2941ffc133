/** Shared pieces of the api-*.test.ts acceptance files. */
import { Type } from "typebox";
import { Dimension, Metric, SemanticView } from "lib";
import { SALES_BY_COUNTRY } from "../../support/sales-fixture.js";
import { Cursor } from "lib";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export function assertType<T extends true>(): T | void {}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// "Declaring a semantic view": the sample, verbatim
// ---------------------------------------------------------------------------------------------

export class Sales extends SemanticView("sales", {
  revenue: Metric(), // optional value type: Metric<bigint>()
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

/** The same view with every value type filled in (the form codegen emits). */
export class TypedSales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

export class Other extends SemanticView("other", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

/** The response model of API.md "Cursor". */
export const RevenueByCountry = Type.Object(
  { country: Type.String({ title: "Country" }), revenue: Type.Integer({ title: "Revenue" }) },
  { title: "RevenueByCountry" },
);

/** The example query's answer over the one sales fixture (`test/support/sales-fixture.ts`). */
export const BY_COUNTRY = SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue }));
