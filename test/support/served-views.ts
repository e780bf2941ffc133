/**
 * The sales fixture's views as a generated `index.ts` would export them: each view class beside its
 * `<View>Row` DTO, and `OrdersFacts` for the facts `OrdersRow` leaves out, so the request core knows every
 * member's value type (the fixture's own classes carry types at the type level only).
 */
import { Type } from "typebox";
import { BigIntType, DateType, DecimalType } from "lib";
import { Orders, Sales } from "./sales-fixture.js";

export { Orders, Sales };

export const SalesRow = Type.Object(
  {
    revenue: BigIntType({ title: "Revenue" }),
    cost: BigIntType({ title: "Cost" }),
    country: Type.String({ title: "Country", description: "ISO 3166 country code" }),
    region: Type.Union([Type.String(), Type.Null()], { title: "Region" }),
  },
  { title: "SalesRow" },
);

export const OrdersRow = Type.Object(
  {
    total: DecimalType({ title: "Total" }),
    orderCount: BigIntType({ title: "Order Count" }),
    status: Type.String({ title: "Status" }),
    orderedAt: DateType({ title: "Ordered At" }),
    orderedOn: DateType({ format: "date", title: "Ordered On" }),
    isRush: Type.Boolean({ title: "Is Rush" }),
  },
  { title: "OrdersRow" },
);

/** As codegen writes it: facts are queried on their own, so `OrdersRow` leaves them out and this types them. */
export const OrdersFacts = Type.Object(
  {
    quantity: Type.Integer({ title: "Quantity" }),
    price: DecimalType({ title: "Price" }),
    statusCode: Type.String({ title: "Status Code" }),
  },
  { title: "OrdersFacts" },
);
