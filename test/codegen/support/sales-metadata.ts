/** The demo `sales` view as backend C introspection reports it (SUM over INTEGER is BIGINT). */
import type { ViewMetadata } from "../../../runtime/dialects/introspect/metadata.js";

export const SALES_VIEW: ViewMetadata = {
  name: "sales",
  members: [
    { name: "country", kind: "dimension", type: "VARCHAR", expression: "sales_data.country" },
    { name: "region", kind: "dimension", type: "VARCHAR", expression: "sales_data.region" },
    { name: "revenue", kind: "metric", type: "BIGINT", expression: "SUM(sales_data.revenue)" },
    { name: "cost", kind: "metric", type: "BIGINT", expression: "SUM(sales_data.cost)" },
  ],
};

export const REVENUE_BY_COUNTRY = { name: "RevenueByCountry", view: "sales", fields: ["country", "revenue"] } as const;
