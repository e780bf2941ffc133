/** Validation of `GET /revenue`'s query string against the TypeBox `RevenueQuery` schema. */
import { Compile } from "typebox/compile";
import { RequestValidationError } from "./http-errors.js";
import { RevenueQuery } from "./schemas.js";

const validator = Compile(RevenueQuery);

/** The filter to apply: `null` when `country` is absent or empty. */
export interface RevenueFilter {
  readonly country: string | null;
}

export function parseRevenueQuery(query: unknown): RevenueFilter {
  if (!validator.Check(query)) {
    const [first] = validator.Errors(query);
    const parameter = first?.instancePath.replace(/^\//, "") || "query";
    const given = Array.isArray((query as Record<string, unknown>)[parameter]) ? "repeated" : "malformed";
    throw new RequestValidationError(
      parameter,
      `Query parameter '${parameter}' is ${given}: ${first?.message ?? "invalid"} (give it at most once)`,
    );
  }
  const country = (query as { country?: string }).country;
  return { country: country === undefined || country === "" ? null : country };
}
