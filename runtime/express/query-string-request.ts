/**
 * The GET form of a query: `?metrics=revenue,cost&dimensions=country&orderBy=-revenue&limit=10`
 * (lists comma-separated or repeated), `where` as a URL-encoded JSON condition tree and `variables`
 * as a URL-encoded JSON object (`?variables={"minRevenue":"100"}`). It becomes the
 * same request object a POST body carries, so the core validates both alike; values stay strings and
 * the members' declared types parse them exactly.
 */
import { InvalidRequestError } from "../request/invalid-request-error.js";
import { parseRequestJson } from "../request/request-json.js";

const LISTS = new Set(["metrics", "dimensions", "facts", "orderBy"]);
const SINGLE = new Set(["limit", "offset", "view", "where", "variables"]);
/** Parameters whose value is JSON text. */
const JSON_PARAMETERS = new Set(["where", "variables"]);

/** The request a query string stands for (unknown parameters are kept, so the core names them). */
export function requestFromQueryString(search: URLSearchParams): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (LISTS.has(key)) {
      request[key] = values
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== "");
    } else if (SINGLE.has(key) || values.length === 1) {
      if (values.length > 1) {
        throw new InvalidRequestError([
          { field: key, code: "invalid_value", message: `"${key}" is given ${values.length} times` },
        ]);
      }
      request[key] = JSON_PARAMETERS.has(key) ? parseJsonParameter(key, values[0]!) : values[0];
    } else {
      request[key] = values;
    }
  }
  return request;
}

function parseJsonParameter(key: string, text: string): unknown {
  try {
    return parseRequestJson(text);
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      throw new InvalidRequestError([{ ...error.errors[0]!, field: key, code: "invalid_value" }]);
    }
    throw error;
  }
}
