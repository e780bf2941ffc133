/**
 * The OpenAPI 3.1 document of the service, built from the TypeBox schemas (OpenAPI 3.1 uses JSON
 * Schema 2020-12, which is what TypeBox emits), so the models are declared exactly once.
 */
import { toJsonSchema } from "lib/express";
import type { TSchema } from "typebox";
import { RevenueByCountry } from "./model.js";
import { HttpError, Problem, RevenueQuery } from "./schemas.js";

export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A schema as plain JSON of what `toJson` writes (a `BigIntType()` property is an int64 `integer`). */
function jsonSchema(schema: TSchema): JsonObject {
  return toJsonSchema(schema) as JsonObject;
}

function ref(schema: TSchema & { title?: string }): JsonObject {
  if (schema.title === undefined) throw new Error("component schemas need a title");
  return { $ref: `#/components/schemas/${schema.title}` };
}

/** One OpenAPI query parameter per property of an object schema. */
function queryParameters(schema: typeof RevenueQuery): JsonObject[] {
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = jsonSchema(property);
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}

/** SPEC's 503 body. */
function unavailableResponse(description: string): JsonObject {
  return { description, content: { "application/json": { schema: ref(HttpError) } } };
}

/** Every other error: RFC 9457 problem details. */
function problemResponse(description: string): JsonObject {
  return { description, content: { "application/problem+json": { schema: ref(Problem) } } };
}

/**
 * The service's document; `api` (the semantic router's, paths under /api) adds its paths and schemas.
 * Its `Problem` (with `errors[]`) describes the service's problems too: they are the same RFC 9457 shape.
 */
export function buildOpenApiDocument(api?: Record<string, unknown>): JsonObject {
  const own = ownDocument();
  if (api === undefined) return own;
  const apiComponents = (api["components"] as { schemas: JsonObject }).schemas;
  return {
    ...own,
    info: {
      ...(own["info"] as JsonObject),
      description: `${(own["info"] as JsonObject)["description"] as string} Every generated view is also served under \`/api\`.`,
    },
    paths: { ...(own["paths"] as JsonObject), ...(api["paths"] as JsonObject) },
    components: {
      schemas: {
        ...apiComponents,
        ...((own["components"] as JsonObject)["schemas"] as JsonObject),
        Problem: apiComponents["Problem"]!,
      },
    },
  };
}

function ownDocument(): JsonObject {
  return {
    openapi: "3.1.0",
    info: {
      title: "lib example service",
      version: "0.1.0",
      description: "Revenue by country from the `sales` semantic view, through the `lib` query library.",
    },
    paths: {
      "/revenue": {
        get: {
          operationId: "getRevenue",
          summary: "Revenue by country",
          description:
            "Sums the `revenue` metric per `country`, largest first. An unknown country gives an empty array.",
          parameters: queryParameters(RevenueQuery),
          responses: {
            "200": {
              description: "Revenue per country, sorted by revenue descending",
              content: {
                "application/json": { schema: { type: "array", items: ref(RevenueByCountry) } },
              },
            },
            "405": {
              ...problemResponse("Only GET and HEAD are supported"),
              headers: { Allow: { schema: { type: "string" }, description: "GET, HEAD" } },
            },
            "422": problemResponse("Invalid query parameter: unknown, repeated or array-valued (`country[]`)"),
            "500": problemResponse("Unexpected failure"),
            "503": unavailableResponse("Data warehouse is unavailable"),
          },
        },
      },
    },
    components: {
      schemas: {
        RevenueByCountry: jsonSchema(RevenueByCountry),
        HTTPError: jsonSchema(HttpError),
        Problem: jsonSchema(Problem),
      },
    },
  };
}
