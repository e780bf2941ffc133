/**
 * The `sales` semantic view and the `/revenue` response model.
 *
 * Placeholder until `lib codegen` writes `generated/`: codegen replaces this module with a
 * re-export of the generated `Sales` class and `RevenueByCountry` schema, so nothing else in
 * the service changes.
 */
import { Type } from "typebox";
import { Dimension, Metric, SemanticView } from "lib";

export class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string>(),
}) {}

export const RevenueByCountry = Type.Object(
  {
    country: Type.String({ title: "Country" }),
    revenue: Type.Integer({ title: "Revenue" }),
  },
  { title: "RevenueByCountry" },
);
