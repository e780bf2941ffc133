/**
 * Type-level tests of declarations and the query builder, checked by `tsc --noEmit` (part of the
 * project type-check; nothing here runs). `@ts-expect-error` lines are misuse that must not compile.
 */
import {
  Decimal,
  Dimension,
  Fact,
  Metric,
  SemanticView,
  Variable,
  and,
  not,
  or,
  type CompiledQuery,
  type Condition,
  type Field,
  type QueryCursor,
  type RowOf,
  type SemanticQuery,
} from "lib";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
  tier: Dimension<"gold" | "silver" | null>(),
  quantity: Fact<number>(),
}) {}

class Other extends SemanticView("other", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

// Declarations: static members with their kind, value type, name and view.
assertType<Equals<typeof Sales.viewName, "sales">>();
assertType<Equals<typeof Sales.revenue, Field<"metric", bigint, "revenue", "sales">>>();
assertType<Equals<typeof Sales.cost, Field<"metric", number | bigint | Decimal, "cost", "sales">>>();
assertType<
  Equals<
    typeof Sales.region,
    Field<"dimension", string | number | bigint | boolean | Date | Decimal, "region", "sales">
  >
>();
assertType<Equals<typeof Sales.quantity, Field<"fact", number, "quantity", "sales">>>();
assertType<Equals<typeof Sales.country.name, "country">>();
assertType<Equals<typeof Sales.country.kind, "dimension">>();

// Rows are inferred from the selection, dimensions and metrics alike.
const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
assertType<Equals<RowOf<typeof q>, { revenue: bigint; country: string }>>();
assertType<Equals<keyof RowOf<ReturnType<typeof Sales.query>>, never>>();

const all = Sales.query().dimensions(Sales.country, Sales.tier).metrics(Sales.revenue, Sales.cost);
assertType<
  Equals<
    RowOf<typeof all>,
    { country: string; tier: "gold" | "silver" | null; revenue: bigint; cost: number | bigint | Decimal }
  >
>();

const facts = Sales.query().dimensions(Sales.country).facts(Sales.quantity);
assertType<Equals<RowOf<typeof facts>, { country: string; quantity: number }>>();

// Every builder step keeps the row type.
const full = q
  .where(Sales.country.eq("US"))
  .where(null)
  .orderBy(Sales.revenue.desc({ nulls: "last" }), Sales.country)
  .limit(10)
  .offset(20)
  .using("default");
assertType<Equals<RowOf<typeof full>, { revenue: bigint; country: string }>>();
// Any query of a view and row type is a SemanticQuery<View, Row> (the selection's shape aside).
const anyQuery: SemanticQuery<"sales", { revenue: bigint; country: string }> = full;
void anyQuery;

// compile()/toSql() and execute().
const compiled: CompiledQuery = q.compile({ dialect: "backend_c" });
const sql: string = q.toSql();
void compiled;
void sql;
async function rows() {
  const cursor = await q.execute({ timeoutMs: 1000 });
  assertType<Equals<typeof cursor, QueryCursor<{ revenue: bigint; country: string }>>>();
  const fetched = await cursor.fetchAllRows();
  assertType<Equals<(typeof fetched)[number], { revenue: bigint; country: string }>>();
}
void rows;

// Conditions: value types follow the field; numerics are interchangeable; null means IS NULL.
Sales.country.eq("US");
Sales.country.eq(null);
Sales.country.in(["US", "DE", null]);
Sales.tier.eq("gold");
Sales.quantity.between(1, 10n);
Sales.quantity.gt(Decimal.parse("1.5"));
Sales.region.eq(5);
Sales.region.eq(new Date());
Sales.country.startsWith("U");
const combined = and(Sales.country.eq("US"), or(Sales.tier.isNull(), not(Sales.quantity.lt(3))));
assertType<Equals<typeof combined, Condition<"sales", never>>>();
Sales.query().metrics(Sales.revenue).where(combined);
Sales.query().metrics(Sales.revenue).where(and());
assertType<Equals<ReturnType<typeof Sales.revenue.gt>, Condition<"sales", "revenue">>>();

// ---- misuse ----

// @ts-expect-error a field of another view
Sales.query().metrics(Other.revenue);
// @ts-expect-error a field of another view in dimensions
Sales.query().dimensions(Other.country);
// @ts-expect-error a condition on another view
Sales.query().metrics(Sales.revenue).where(Other.country.eq("US"));
// prettier-ignore
// @ts-expect-error mixing views inside and()
Sales.query().metrics(Sales.revenue).where(and(Sales.country.eq("US"), Other.country.eq("US")));
// @ts-expect-error an ordering on another view
Sales.query().metrics(Sales.revenue).orderBy(Other.revenue.desc());
// @ts-expect-error a metric inside where()
Sales.query().metrics(Sales.revenue).where(Sales.revenue.gt(100n));
// prettier-ignore
// @ts-expect-error a metric nested inside where()
Sales.query().metrics(Sales.revenue).where(or(Sales.country.eq("US"), Sales.cost.lt(1)));
// @ts-expect-error a dimension passed to metrics()
Sales.query().metrics(Sales.country);
// @ts-expect-error a metric passed to dimensions()
Sales.query().dimensions(Sales.revenue);
// @ts-expect-error a fact passed to dimensions()
Sales.query().dimensions(Sales.quantity);
// @ts-expect-error a number for a Dimension<string>
Sales.country.eq(5);
// @ts-expect-error a value outside a literal union
Sales.tier.eq("bronze");
// @ts-expect-error a string for a numeric fact
Sales.quantity.gt("3");
// @ts-expect-error null outside eq/ne/in/notIn
Sales.country.gt(null);
// @ts-expect-error a bad nulls placement
Sales.revenue.desc({ nulls: "middle" });
// @ts-expect-error a raw SQL string is not a condition
Sales.query().where("country = 'US'");
// @ts-expect-error an unknown dialect
q.toSql({ dialect: "postgres" });
// @ts-expect-error a field name that clashes with the view class
SemanticView("v", { query: Metric() });
// @ts-expect-error another reserved name
SemanticView("v", { name: Dimension() });
// @ts-expect-error a key that is not in the row
type Missing = RowOf<typeof q>["cost"];

// Variables: typed from the declaration; required ones must be given, optional ones may be.
class Promo extends SemanticView("promo", {
  revenue: Metric<bigint>(),
  minRevenue: Variable<bigint>(),
  discount: Variable<Decimal>({ optional: true }),
  region: Variable<string>({ optional: true, name: "REGION_CODE" }),
}) {}
const promo = Promo.query()
  .metrics(Promo.revenue)
  .variables({ minRevenue: 100, discount: Decimal.parse("0.1") });
assertType<Equals<RowOf<typeof promo>, { revenue: bigint }>>();
Promo.query().variables({ minRevenue: 5n, region: "EU" });
// @ts-expect-error a required variable is missing
Promo.query().variables({ discount: 1 });
// @ts-expect-error an undeclared variable
Promo.query().variables({ minRevenue: 1, other: 1 });
// @ts-expect-error text for a numeric variable
Promo.query().variables({ minRevenue: "100" });
// @ts-expect-error a view without variables takes none
Sales.query().variables({ minRevenue: 1 });
// @ts-expect-error a variable is not a member
Promo.query().metrics(Promo.minRevenue);
