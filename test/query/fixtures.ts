/** Views shared by the query tests. `Sales` is the SPEC.md example view. */
import { Decimal, Dimension, Fact, Metric, SemanticView } from "lib";

export class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

/** A view with one member of every value type, for literal and parameter rendering. */
export class Orders extends SemanticView("orders", {
  total: Metric<Decimal>(),
  orderCount: Metric<bigint>(),
  status: Dimension<string>(),
  orderedAt: Dimension<Date>(),
  isRush: Dimension<boolean>(),
  quantity: Fact<number>(),
  price: Fact<Decimal>(),
}) {}

export class Analytics extends SemanticView("analytics.public.sales", {
  revenue: Metric<bigint>(),
  country: Dimension<string>(),
}) {}

export { Decimal };
