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
  const unknown = Object.keys(query as object).filter((name) => name !== "country");
  if (unknown.length > 0) {
    const name = unknown[0]!;
    const hint =
      name.toLowerCase().replace(/\[\]$/, "") === "country"
        ? "; the parameter is 'country', given at most once"
        : "; the only parameter is 'country'";
    throw new RequestValidationError(name, `Unknown query parameter '${name}'${hint}`);
  }
  if (!validator.Check(query)) {
    const [first] = validator.Errors(query);
    const parameter = first?.instancePath.replace(/^\//, "") || "query";
    const value = (query as Record<string, unknown>)[parameter];
    throw new RequestValidationError(
      parameter,
      Array.isArray(value)
        ? `Query parameter '${parameter}' was given ${value.length} times; give it at most once`
        : `Query parameter '${parameter}' is invalid: ${first?.message ?? "unexpected value"}`,
    );
  }
  const country = (query as { country?: string }).country;
  return { country: country === undefined || country === "" ? null : country };
}
