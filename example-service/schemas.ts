/**
 * Hand-declared HTTP schemas of the service (the row model comes from `model.ts`). The OpenAPI
 * document and the request validation are both derived from these TypeBox values.
 */
import { Type } from "typebox";

/** Query string of `GET /revenue`. Extra parameters are ignored. */
export const RevenueQuery = Type.Object(
  {
    country: Type.Optional(
      Type.String({
        title: "Country",
        description: "Only this country's row (exact match). Absent or empty: all countries.",
        examples: ["US"],
      }),
    ),
  },
  { additionalProperties: true },
);

/** Body of every error response (422, 500, 503). */
export const HttpError = Type.Object(
  { detail: Type.String({ title: "Detail" }) },
  { title: "HTTPError" },
);
