/**
 * Hand-declared HTTP schemas of the service (the row model comes from `model.ts`). The OpenAPI
 * document and the request validation are both derived from these TypeBox values.
 */
import { Type } from "typebox";

/** Query string of `GET /revenue`. Any other parameter is rejected (422), so a typo never returns everything. */
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
  { additionalProperties: false },
);

/** SPEC's 503 body. */
export const HttpError = Type.Object({ detail: Type.String({ title: "Detail" }) }, { title: "HTTPError" });

/** RFC 9457 problem details: the body of every other error response (404, 405, 422, 500). */
export const Problem = Type.Object(
  {
    type: Type.String({ title: "Type" }),
    title: Type.String({ title: "Title" }),
    status: Type.Integer({ title: "Status" }),
    detail: Type.String({ title: "Detail" }),
  },
  { title: "Problem" },
);
