/**
 * The type-test suite of issue 24: misuse that must not compile, one `@ts-expect-error` line per case,
 * each naming after `->` the text its diagnostic must contain (test/types/type-tests.test.ts removes
 * the directives and checks every message; `tsc` alone already fails on a directive with no error).
 * Positive cases assert inferred row types exactly. Nothing here runs.
 */
import { Decimal, Dimension, Fact, Metric, SemanticView, and, not, or, type RowOf, type SemanticQuery } from "lib";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

class Shop extends SemanticView("shop", {
  revenue: Metric<bigint>(),
  margin: Metric<Decimal>(),
  share: Metric<number>(),
  country: Dimension<string>(),
  tier: Dimension<"gold" | "silver">(),
  active: Dimension<boolean>(),
  orderedOn: Dimension<Date>(),
  customerId: Dimension<bigint>(),
  units: Fact<number>(),
  price: Fact<Decimal>(),
  sku: Fact<string>(),
  shippedAt: Fact<Date>(),
}) {}

class Stock extends SemanticView("stock", {
  onHand: Metric<bigint>(),
  warehouse: Dimension<string>(),
  lot: Fact<string>(),
}) {}

/** The fan-trap shape of the extension's docs: order-grain and line-item-grain metrics. */
class Sales extends SemanticView(
  "sales",
  {
    region: Dimension<string>(),
    status: Dimension<string>(),
    customer: Dimension<string>(),
    revenue: Metric<number>(),
    orderCount: Metric<bigint>(),
    refunds: Metric<bigint>(),
    lineCount: Metric<bigint>(),
  },
  { groupableBy: { orderCount: ["region", "customer"], refunds: [], lineCount: ["status"] } },
) {}

const d = new Date(0);
const revenueQuery = Shop.query().metrics(Shop.revenue);
const skuQuery = Shop.query().facts(Shop.sku);
const dec = Decimal.parse("1.5");

// ---- positive: rows inferred exactly ----

const byCountry = Shop.query().dimensions(Shop.country, Shop.tier).metrics(Shop.revenue, Shop.margin);
assertType<
  Equals<RowOf<typeof byCountry>, { country: string; tier: "gold" | "silver"; revenue: bigint; margin: Decimal }>
>();
const factsRow = Shop.query().dimensions(Shop.orderedOn).facts(Shop.units, Shop.price, Shop.sku, Shop.shippedAt);
assertType<
  Equals<RowOf<typeof factsRow>, { orderedOn: Date; units: number; price: Decimal; sku: string; shippedAt: Date }>
>();
const flags = Shop.query().metrics(Shop.share).dimensions(Shop.active, Shop.customerId);
assertType<Equals<RowOf<typeof flags>, { share: number; active: boolean; customerId: bigint }>>();
// Ordered before it is selected, then selected: fine (the order of builder calls does not matter).
const late = Shop.query().orderBy(Shop.revenue.desc()).metrics(Shop.revenue).limit(0).offset(0);
assertType<Equals<RowOf<typeof late>, { revenue: bigint }>>();
void late.toSql();
// Filters on dimensions and facts of every value kind.
const filtered = revenueQuery
  .where(and(Shop.country.in(["DE", null]), Shop.tier.ne("gold"), Shop.active.eq(true)))
  .where(or(Shop.orderedOn.gte(d), Shop.shippedAt.between(d, d), not(Shop.units.lt(dec))))
  .where(Shop.customerId.gt(5))
  .where(Shop.price.lte(2n));
assertType<Equals<RowOf<typeof filtered>, { revenue: bigint }>>();
// Allowed pairs of a view with metric-dimension rules, in either order.
const allowed = Sales.query().metrics(Sales.orderCount, Sales.revenue).dimensions(Sales.region, Sales.customer);
assertType<Equals<RowOf<typeof allowed>, { orderCount: bigint; revenue: number; region: string; customer: string }>>();
const allowed2 = Sales.query().dimensions(Sales.status).metrics(Sales.lineCount, Sales.revenue);
assertType<Equals<RowOf<typeof allowed2>, { status: string; lineCount: bigint; revenue: number }>>();
const alone = Sales.query().metrics(Sales.refunds);
assertType<Equals<RowOf<typeof alone>, { refunds: bigint }>>();
// A query passed around as SemanticQuery<V, R> keeps its row; wide fields stay unchecked at the type level.
function total(q: SemanticQuery<"shop", { revenue: bigint }>): SemanticQuery<"shop", { revenue: bigint }> {
  return q.limit(10);
}
assertType<Equals<RowOf<ReturnType<typeof total>>, { revenue: bigint }>>();

// ---- a member the view does not have ----

// @ts-expect-error a misspelled member -> Property 'revenu' does not exist
Shop.query().metrics(Shop.revenu);
// @ts-expect-error a member in the wrong case -> Property 'Country' does not exist
Shop.query().dimensions(Shop.Country);
// @ts-expect-error another view's member name on this view -> Property 'onHand' does not exist
Shop.query().metrics(Shop.onHand);
// @ts-expect-error a member of the other view, by name -> Property 'country' does not exist
Stock.query().dimensions(Stock.country);
// @ts-expect-error a member that is no member -> Property 'total' does not exist
Sales.query().metrics(Sales.total);
// @ts-expect-error the row has no such column -> Property 'cost' does not exist
export type NoCost = RowOf<typeof byCountry>["cost"];
// @ts-expect-error a row value of the wrong type -> Type 'number' is not assignable to type 'bigint'
export const wrongRow: RowOf<typeof flags> = { share: 1, active: true, customerId: 1 };
// @ts-expect-error a row missing a column -> Property 'active' is missing
export const shortRow: RowOf<typeof flags> = { share: 1, customerId: 1n };

// ---- a member of another view ----

// @ts-expect-error -> 'onHand' is a field of view 'stock', not 'shop'
Shop.query().metrics(Stock.onHand);
// @ts-expect-error -> 'warehouse' is a field of view 'stock', not 'shop'
Shop.query().dimensions(Stock.warehouse);
// @ts-expect-error -> 'lot' is a field of view 'stock', not 'shop'
Shop.query().facts(Stock.lot);
// @ts-expect-error -> 'revenue' is a field of view 'shop', not 'stock'
Stock.query().metrics(Stock.onHand, Shop.revenue);
// @ts-expect-error -> a condition on view 'stock' cannot filter a query of view 'shop'
revenueQuery.where(Stock.warehouse.eq("W1"));
// @ts-expect-error -> a condition on view 'stock' cannot filter a query of view 'shop'
revenueQuery.where(and(Shop.country.eq("DE"), Stock.lot.eq("L1")));
// @ts-expect-error -> a condition on view 'stock' cannot filter a query of view 'shop'
revenueQuery.where(not(Stock.warehouse.isNull()));
// @ts-expect-error -> 'onHand' is a field of view 'stock', not 'shop'
Shop.query().metrics(Shop.revenue).orderBy(Stock.onHand.desc());
// @ts-expect-error -> 'warehouse' is a field of view 'stock', not 'shop'
Shop.query().metrics(Shop.revenue).orderBy(Stock.warehouse);
// @ts-expect-error -> 'region' is a field of view 'sales', not 'stock'
Stock.query().metrics(Stock.onHand).orderBy(Stock.onHand, Sales.region.asc());

// ---- a metric in where() ----

// @ts-expect-error -> metric 'revenue' cannot be used in where()
revenueQuery.where(Shop.revenue.gt(100n));
// @ts-expect-error -> metric 'margin' cannot be used in where()
revenueQuery.where(Shop.margin.lte(dec));
// @ts-expect-error -> metric 'share' cannot be used in where()
revenueQuery.where(Shop.share.between(0, 1));
// @ts-expect-error -> metric 'revenue' cannot be used in where()
revenueQuery.where(Shop.revenue.isNotNull());
// @ts-expect-error -> metric 'revenue' cannot be used in where()
revenueQuery.where(Shop.revenue.in([1n, 2n]));
// @ts-expect-error -> metric 'share' cannot be used in where()
revenueQuery.where(not(Shop.share.eq(0)));
// @ts-expect-error -> metric 'margin' cannot be used in where()
revenueQuery.where(or(Shop.country.eq("DE"), Shop.margin.gt(0)));
// @ts-expect-error -> metric 'revenue' cannot be used in where()
revenueQuery.where(and(Shop.tier.eq("gold"), not(Shop.revenue.lt(5))));
// @ts-expect-error -> metric 'onHand' cannot be used in where()
Stock.query().dimensions(Stock.warehouse).where(Stock.onHand.ne(0n));
// @ts-expect-error -> metric 'orderCount' cannot be used in where()
Sales.query().dimensions(Sales.region).where(Sales.orderCount.gte(1));

// ---- the wrong kind of member for the method ----

// @ts-expect-error -> 'country' is a dimension: select it with .dimensions()
Shop.query().metrics(Shop.country);
// @ts-expect-error -> 'units' is a fact: select it with .facts()
Shop.query().metrics(Shop.units);
// @ts-expect-error -> 'revenue' is a metric: select it with .metrics()
Shop.query().dimensions(Shop.revenue);
// @ts-expect-error -> 'sku' is a fact: select it with .facts()
Shop.query().dimensions(Shop.sku);
// @ts-expect-error -> 'margin' is a metric: select it with .metrics()
Shop.query().facts(Shop.margin);
// @ts-expect-error -> 'tier' is a dimension: select it with .dimensions()
Shop.query().facts(Shop.tier);
// @ts-expect-error -> not assignable to parameter of type 'AnyField'
Shop.query().metrics("revenue");
// @ts-expect-error -> not assignable to parameter of type 'AnyField'
Shop.query().dimensions(Shop.country.asc());

// ---- a field selected twice ----

// @ts-expect-error -> 'revenue' is already selected
Shop.query().metrics(Shop.revenue, Shop.revenue);
// @ts-expect-error -> 'revenue' is already selected
Shop.query().metrics(Shop.revenue).metrics(Shop.revenue);
// @ts-expect-error -> 'country' is already selected
Shop.query().dimensions(Shop.country).metrics(Shop.share).dimensions(Shop.country);
// @ts-expect-error -> 'units' is already selected
Shop.query().facts(Shop.units).facts(Shop.sku, Shop.units);

// ---- metrics and facts together ----

// @ts-expect-error -> metrics and facts cannot be selected in the same query
Shop.query().metrics(Shop.revenue).facts(Shop.units);
// @ts-expect-error -> metrics and facts cannot be selected in the same query
Shop.query().facts(Shop.price).metrics(Shop.margin);
// @ts-expect-error -> metrics and facts cannot be selected in the same query
Shop.query().dimensions(Shop.country).facts(Shop.sku).metrics(Shop.share);
// @ts-expect-error -> metrics and facts cannot be selected in the same query
Stock.query().metrics(Stock.onHand).dimensions(Stock.warehouse).facts(Stock.lot);

// ---- orderBy() of a field the query never selects ----

// @ts-expect-error -> orderBy(): 'margin' is not selected
Shop.query().metrics(Shop.revenue).orderBy(Shop.margin.desc()).toSql();
// @ts-expect-error -> orderBy(): 'country' is not selected
Shop.query().metrics(Shop.revenue).orderBy(Shop.country).compile();
// @ts-expect-error -> orderBy(): 'units' is not selected
void skuQuery.orderBy(Shop.units.asc({ nulls: "first" })).execute();
// @ts-expect-error -> orderBy(): 'tier' is not selected
Shop.query().orderBy(Shop.tier).dimensions(Shop.country).toSql();
// @ts-expect-error -> orderBy(): 'warehouse' is not selected
Stock.query().metrics(Stock.onHand).orderBy(Stock.onHand.desc(), Stock.warehouse.asc()).toSql();
// @ts-expect-error -> orderBy(): 'region' is not selected
Sales.query().metrics(Sales.revenue).orderBy(Sales.region).limit(5).toSql();

// ---- metric-dimension pairs the view refuses ----

// @ts-expect-error -> metric 'orderCount' cannot be grouped by dimension 'status' (it can be grouped by: region, customer)
Sales.query().metrics(Sales.orderCount).dimensions(Sales.status);
// @ts-expect-error -> metric 'orderCount' cannot be grouped by dimension 'status'
Sales.query().dimensions(Sales.status).metrics(Sales.orderCount);
// @ts-expect-error -> metric 'refunds' cannot be grouped by dimension 'region' (it can be grouped by no dimension)
Sales.query().metrics(Sales.refunds).dimensions(Sales.region);
// @ts-expect-error -> metric 'refunds' cannot be grouped by dimension 'customer'
Sales.query().dimensions(Sales.customer).metrics(Sales.revenue, Sales.refunds);
// @ts-expect-error -> metric 'lineCount' cannot be grouped by dimension 'region' (it can be grouped by: status)
Sales.query().metrics(Sales.lineCount).dimensions(Sales.region);
// @ts-expect-error -> metric 'lineCount' cannot be grouped by dimension 'customer'
Sales.query().metrics(Sales.revenue).dimensions(Sales.status).metrics(Sales.lineCount).dimensions(Sales.customer);
// @ts-expect-error -> metric 'orderCount' cannot be grouped by dimension 'status'
Sales.query().dimensions(Sales.region, Sales.status).metrics(Sales.orderCount);
// @ts-expect-error -> metric 'lineCount' cannot be grouped by dimension 'region'
Sales.query().dimensions(Sales.region).orderBy(Sales.region).metrics(Sales.lineCount);

// ---- the wrong value type, per operator and value kind ----

// string dimension
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.eq(5);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.ne(true);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.gt(1n);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.gte(d);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.lt(dec);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.lte(0);
// @ts-expect-error -> Type 'number' is not assignable to type 'string'
Shop.country.in(["DE", 1]);
// @ts-expect-error -> Type 'boolean' is not assignable to type 'string'
Shop.country.notIn([false]);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.between("A", 9);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.like(1);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.startsWith(null);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.endsWith(["D"]);
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.country.contains(d);
// string fact
// @ts-expect-error -> not assignable to parameter of type 'string'
Shop.sku.eq(42);
// @ts-expect-error -> Type 'bigint' is not assignable to type 'string'
Shop.sku.in([1n]);
// literal-union dimension
// @ts-expect-error -> not assignable to parameter of type '"gold" | "silver"
Shop.tier.eq("bronze");
// @ts-expect-error -> not assignable to parameter of type '"gold" | "silver"
Shop.tier.ne("Gold");
// @ts-expect-error -> not assignable to parameter of type '"gold" | "silver"
Shop.tier.gt("platinum");
// @ts-expect-error -> not assignable to type '"gold" | "silver"
Shop.tier.in(["gold", "bronze"]);
// @ts-expect-error -> not assignable to type '"gold" | "silver"
Shop.tier.notIn(["tin"]);
// @ts-expect-error -> not assignable to parameter of type '"gold" | "silver"
Shop.tier.between("gold", "zinc");
// @ts-expect-error -> not assignable to parameter of type '"gold" | "silver"
Shop.tier.lte(1);
// bigint dimension (any numeric is accepted, nothing else)
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.customerId.eq("1");
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.customerId.ne(true);
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.customerId.gt(d);
// @ts-expect-error -> not assignable to type 'number | bigint | Decimal
Shop.customerId.in([1, "2"]);
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.customerId.between(1n, "9");
// number fact
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.units.eq("3");
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.units.gte(false);
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.units.lt("10");
// @ts-expect-error -> not assignable to type 'number | bigint | Decimal
Shop.units.notIn([d]);
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.units.between("1", 2);
// Decimal fact
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.price.eq("1.50");
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.price.gt([1]);
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.price.lte(d);
// @ts-expect-error -> not assignable to type 'number | bigint | Decimal
Shop.price.in(["1.5"]);
// boolean dimension
// @ts-expect-error -> not assignable to parameter of type 'boolean
Shop.active.eq("true");
// @ts-expect-error -> not assignable to parameter of type 'boolean
Shop.active.ne(1);
// @ts-expect-error -> not assignable to type 'boolean
Shop.active.in([0, 1]);
// @ts-expect-error -> not assignable to parameter of type 'boolean
Shop.active.gt(0n);
// Date dimension and fact
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.orderedOn.eq("2024-01-01");
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.orderedOn.gt(1704067200000);
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.orderedOn.lte(1n);
// @ts-expect-error -> not assignable to type 'Date'
Shop.orderedOn.in(["2024-01-01"]);
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.orderedOn.between(d, "2025-01-01");
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.shippedAt.gte("yesterday");
// @ts-expect-error -> not assignable to type 'Date'
Shop.shippedAt.notIn([0]);
// metric conditions (valid in no where(), but typed all the same)
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.revenue.gt("100");
// @ts-expect-error -> not assignable to parameter of type 'number | bigint | Decimal
Shop.margin.eq(true);
// null only where it means IS NULL / IS NOT NULL (eq, ne, in, notIn)
// @ts-expect-error -> Argument of type 'null' is not assignable
Shop.country.gt(null);
// @ts-expect-error -> Argument of type 'null' is not assignable
Shop.units.gte(null);
// @ts-expect-error -> Argument of type 'null' is not assignable
Shop.orderedOn.lt(null);
// @ts-expect-error -> Argument of type 'null' is not assignable
Shop.price.lte(null);
// @ts-expect-error -> Argument of type 'null' is not assignable
Shop.customerId.between(null, 5);
// @ts-expect-error -> Argument of type 'undefined' is not assignable
Shop.country.eq(undefined);
// @ts-expect-error -> Expected 1 arguments
Shop.country.eq();
// @ts-expect-error -> Expected 2 arguments
Shop.units.between(1);

// ---- where(), orderBy(), limit() and offset() take what they document ----

// @ts-expect-error -> not assignable to parameter of type 'Condition<string, string>'
revenueQuery.where("country = 'DE'");
// @ts-expect-error -> not assignable to parameter of type 'Condition<string, string>'
revenueQuery.where(Shop.country);
// @ts-expect-error -> not assignable to parameter of type 'Condition<string, string>'
revenueQuery.where(true);
// @ts-expect-error -> not assignable to parameter of type 'AnyField | Ordering<string, string>'
Shop.query().metrics(Shop.revenue).orderBy("revenue");
// @ts-expect-error -> not assignable to parameter of type 'AnyField | Ordering<string, string>'
Shop.query().metrics(Shop.revenue).orderBy(Shop.country.eq("DE"));
// @ts-expect-error -> not assignable to type '"first" | "last" | undefined'
Shop.revenue.desc({ nulls: "middle" });
// @ts-expect-error -> limit(): expected a non-negative integer, got -1
Shop.query().metrics(Shop.revenue).limit(-1);
// @ts-expect-error -> limit(): expected a non-negative integer, got 2.5
Shop.query().metrics(Shop.revenue).limit(2.5);
// @ts-expect-error -> offset(): expected a non-negative integer, got -10
Shop.query().metrics(Shop.revenue).offset(-10);
// @ts-expect-error -> offset(): expected a non-negative integer, got 0.5
Shop.query().metrics(Shop.revenue).offset(0.5);
// @ts-expect-error -> not assignable to parameter of type 'number'
Shop.query().metrics(Shop.revenue).limit("10");
// @ts-expect-error -> not assignable to parameter of type 'EngineRef'
Shop.query().metrics(Shop.revenue).using(42);
// @ts-expect-error -> not assignable to type '"backend_a" | "backend_b" | "backend_c" | undefined'
Shop.query().metrics(Shop.revenue).toSql({ dialect: "postgres" });

// ---- declarations ----

// @ts-expect-error -> field name 'query' clashes with View.query
SemanticView("v1", { query: Metric() });
// @ts-expect-error -> field name 'viewName' clashes with View.viewName
SemanticView("v2", { viewName: Dimension() });
// @ts-expect-error -> field name 'length' clashes with a member every class has
SemanticView("v3", { length: Fact<number>() });
// @ts-expect-error groupableBy keys are metrics -> 'region' does not exist in type
SemanticView("v4", { m: Metric(), region: Dimension() }, { groupableBy: { region: ["region"] } });
// @ts-expect-error groupableBy lists dimensions -> Type '"m"' is not assignable to type '"region"'
SemanticView("v5", { m: Metric(), region: Dimension() }, { groupableBy: { m: ["m"] } });
// @ts-expect-error groupableBy lists fields of the view -> Type '"country"' is not assignable to type '"region"'
SemanticView("v6", { m: Metric(), region: Dimension() }, { groupableBy: { m: ["country"] } });
// @ts-expect-error a fact is not a dimension -> Type '"f"' is not assignable to type '"region"'
SemanticView("v7", { m: Metric(), f: Fact(), region: Dimension() }, { groupableBy: { m: ["f"] } });
// @ts-expect-error -> Type 'number' is not assignable to type 'string'
SemanticView("v8", { m: Metric() }, { name: 8 });
// @ts-expect-error -> Property 'revenue' does not exist
Shop.query().metrics(Shop.revenue).revenue;
// @ts-expect-error a view class is used through its statics -> Property 'revenue' does not exist
new Shop().revenue;

// ---- relative date ranges: Date members only, known units and options ----

const recent = revenueQuery
  .where(Shop.orderedOn.inLast(7, "day"))
  .where(Shop.shippedAt.toDate("year", { timeZone: "Europe/Berlin", weekStart: "sunday", now: () => d }));
assertType<Equals<RowOf<typeof recent>, { revenue: bigint }>>();
// @ts-expect-error -> inLast() takes a Date dimension or fact (a relative date range)
Shop.country.inLast(7, "day");
// @ts-expect-error -> inCurrent() takes a Date dimension or fact (a relative date range)
Shop.units.inCurrent("month");
// @ts-expect-error -> inPrevious() takes a Date dimension or fact (a relative date range)
Shop.active.inPrevious("week");
// @ts-expect-error -> toDate() takes a Date dimension or fact (a relative date range)
Shop.customerId.toDate("year");
// @ts-expect-error -> not assignable to parameter of type 'DateUnit'
Shop.orderedOn.inLast(7, "fortnight");
// @ts-expect-error -> not assignable to parameter of type 'DateUnit'
Shop.orderedOn.inCurrent("hour");
// @ts-expect-error -> not assignable to parameter of type 'number'
Shop.orderedOn.inLast("7", "day");
// @ts-expect-error -> not assignable to type '"monday" | "sunday" | undefined'
Shop.orderedOn.inPrevious("week", { weekStart: "friday" });
// @ts-expect-error -> Type 'number' is not assignable to type 'string'
Shop.orderedOn.toDate("month", { timeZone: 1 });
// @ts-expect-error -> 'zone' does not exist in type 'DateRangeOptions'
Shop.orderedOn.inCurrent("day", { zone: "UTC" });
// @ts-expect-error -> metric 'revenue' cannot be used in where()
revenueQuery.where(and(Shop.orderedOn.inLast(3, "month"), Shop.revenue.gt(0)));

// ---- half-open date ranges: inRange(start, end) on Date members, Date arguments ----

const firstQuarter = revenueQuery.where(Shop.orderedOn.inRange(d, d)).where(Shop.shippedAt.inRange(d, d));
assertType<Equals<RowOf<typeof firstQuarter>, { revenue: bigint }>>();
// @ts-expect-error -> inRange() takes a Date dimension or fact (a half-open date range)
Shop.country.inRange(d, d);
// @ts-expect-error -> inRange() takes a Date dimension or fact (a half-open date range)
Shop.units.inRange(d, d);
// @ts-expect-error -> not assignable to parameter of type 'Date'
Shop.orderedOn.inRange(d, "2024-04-01");
