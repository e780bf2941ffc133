/** Views of the query tests: the sales fixture's `Sales` (the SPEC.md example) and `Orders`, and a qualified view. */
import { Decimal, Dimension, Metric, SemanticView } from "lib";

export { Orders, Sales } from "../../support/sales-fixture.js";

export class Analytics extends SemanticView("analytics.public.sales", {
  revenue: Metric<bigint>(),
  country: Dimension<string>(),
}) {}

export { Decimal };
