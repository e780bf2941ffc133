/**
 * The OpenAPI 3.1 document of a semantic router: per view, its description, its query (POST body
 * and GET parameters) with the member names as enums, and its answers — a JSON page of rows (the
 * generated row DTO), NDJSON lines, an Arrow IPC stream — and RFC 9457 problems. One document for
 * every view (`/openapi.json`) or one per view (`/views/{view}/openapi.json`), to merge into an
 * application's own document.
 */
import type { SemanticApi } from "../request/semantic-api.js";
import { factsRowSchema, requestSchema, rowSchema, whereSchema, type JsonSchema } from "../request/request-schema.js";
import { MEMBER_TYPES } from "../request/member-type.js";
import type { ViewEntry } from "../request/view-registry.js";
import { MEDIA_TYPES } from "./content-negotiation.js";
import { TRUNCATED_TRAILER } from "./query-answer.js";

export interface OpenApiOptions {
  /** Where the router is mounted (`/api`); paths are prefixed with it. */
  readonly basePath?: string;
  readonly title?: string;
  readonly version?: string;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const PROBLEM_SCHEMA: JsonSchema = {
  type: "object",
  title: "Problem",
  description: "RFC 9457 problem details",
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    instance: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          field: { type: "string", description: "Where in the request: metrics[0], where.and[1].value, limit" },
          pointer: { type: "string", description: "The same place as a JSON Pointer" },
          code: { type: "string" },
          message: { type: "string" },
          suggestion: { type: "string", description: "The closest valid name" },
        },
        required: ["field", "code", "message"],
      },
    },
  },
  required: ["type", "title", "status", "detail"],
};

const MEMBER_SCHEMA: JsonSchema = {
  type: "object",
  title: "ViewDescription",
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    members: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          kind: { type: "string", enum: ["metric", "dimension", "fact"] },
          type: { type: "string", enum: [...MEMBER_TYPES] },
          nullable: { type: "boolean" },
          description: { type: "string" },
        },
        required: ["name", "kind", "type", "nullable"],
      },
    },
    variables: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          type: { type: "string", enum: [...MEMBER_TYPES] },
          required: { type: "boolean" },
          description: { type: "string" },
        },
        required: ["name", "type", "required"],
      },
    },
  },
  required: ["name", "members"],
};

function problems(statuses: readonly number[]): Record<string, unknown> {
  const descriptions: Record<number, string> = {
    400: "The body is not JSON, or not an object",
    403: "The scope does not allow this request",
    404: "Unknown view (with a suggestion)",
    406: "None of the accepted media types can be served",
    413: "The body is too large",
    415: "The body is not application/json",
    422: "A member, operator, value or limit is invalid; errors[] names each field",
    503: "Data warehouse is unavailable (see Retry-After)",
  };
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: descriptions[status] ?? "Error",
        content: { "application/problem+json": { schema: ref("Problem") } },
        ...(status === 503
          ? { headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds" } } }
          : {}),
      },
    ]),
  );
}

function answers(entry: ViewEntry): Record<string, unknown> {
  // A facts query answers facts only (never with dimensions or metrics): its rows are the facts DTO's.
  const row =
    entry.factsSchema === undefined
      ? ref(`${entry.className}Row`)
      : { anyOf: [ref(`${entry.className}Row`), ref(`${entry.className}Facts`)] };
  return {
    "200": {
      description: "The rows, as the Accept header asks",
      headers: {
        [TRUNCATED_TRAILER]: {
          schema: { type: "string", enum: ["true", "false"] },
          description: "Trailer of a capped stream",
        },
      },
      content: {
        [MEDIA_TYPES.json]: {
          schema: {
            type: "object",
            properties: {
              rows: { type: "array", items: row },
              truncated: { type: "boolean", description: "More rows exist than this page holds" },
              next: {
                anyOf: [ref(`${entry.className}Query`), { type: "null" }],
                description: "The request continuing after this page",
              },
            },
            required: ["rows", "truncated", "next"],
          },
        },
        [MEDIA_TYPES.ndjson]: { schema: { ...row, description: "One row per line" } },
        [MEDIA_TYPES.arrow]: { schema: { type: "string", contentMediaType: MEDIA_TYPES.arrow } },
      },
    },
    ...problems([400, 403, 404, 406, 413, 415, 422, 503]),
  };
}

function queryParameters(entry: ViewEntry): unknown[] {
  const list = (name: string, kind: string) => ({
    name,
    in: "query",
    description: `Comma-separated ${name}`,
    style: "form",
    explode: false,
    schema: {
      type: "array",
      items: { type: "string", enum: entry.members.filter((m) => m.kind === kind).map((m) => m.name) },
    },
  });
  return [
    ...(["metric", "dimension", "fact"] as const)
      .filter((kind) => entry.members.some((m) => m.kind === kind))
      .map((kind) => list(`${kind === "fact" ? "facts" : `${kind}s`}`, kind)),
    {
      name: "where",
      in: "query",
      description: "A JSON condition tree",
      content: { "application/json": { schema: ref(`${entry.className}Where`) } },
    },
    { name: "orderBy", in: "query", description: "Comma-separated; -name for descending", schema: { type: "string" } },
    { name: "limit", in: "query", schema: { type: "integer", minimum: 1 } },
    { name: "offset", in: "query", schema: { type: "integer", minimum: 0 } },
  ];
}

function viewPaths(entry: ViewEntry, base: string): Record<string, unknown> {
  const name = entry.name;
  const tags = [name];
  return {
    [`${base}/views/${name}`]: {
      get: {
        operationId: `describe_${entry.className}`,
        tags,
        summary: `The members of ${name}`,
        responses: {
          "200": { description: "Members", content: { [MEDIA_TYPES.json]: { schema: ref("ViewDescription") } } },
          ...problems([404]),
        },
      },
    },
    [`${base}/views/${name}/query`]: {
      post: {
        operationId: `query_${entry.className}`,
        tags,
        summary: `Query ${name}`,
        requestBody: { required: true, content: { [MEDIA_TYPES.json]: { schema: ref(`${entry.className}Query`) } } },
        responses: answers(entry),
      },
      get: {
        operationId: `query_${entry.className}_get`,
        tags,
        summary: `Query ${name} (query-string form)`,
        parameters: queryParameters(entry),
        responses: answers(entry),
      },
    },
  };
}

/** The document for `entries` (every view of `api` by default). */
export function openApiDocument(
  api: SemanticApi<never>,
  options: OpenApiOptions = {},
  entries = api.registry.entries,
): JsonSchema {
  const base = (options.basePath ?? "").replace(/\/$/, "");
  const schemas: Record<string, unknown> = { Problem: PROBLEM_SCHEMA, ViewDescription: MEMBER_SCHEMA };
  let paths: Record<string, unknown> = {
    [`${base}/views`]: {
      get: {
        operationId: "list_views",
        summary: "The views served",
        responses: {
          "200": {
            description: "Views",
            content: {
              [MEDIA_TYPES.json]: {
                schema: { type: "object", properties: { views: { type: "array", items: { type: "object" } } } },
              },
            },
          },
        },
      },
    },
  };
  for (const entry of entries) {
    const whereName = `${entry.className}Where`;
    schemas[`${entry.className}Row`] = rowSchema(entry);
    const facts = factsRowSchema(entry);
    if (facts !== undefined) schemas[`${entry.className}Facts`] = facts;
    schemas[`${entry.className}Query`] = requestSchema(entry, `#/components/schemas/${whereName}`, api.limits);
    schemas[whereName] = whereSchema(entry, `#/components/schemas/${whereName}`, api.limits);
    paths = { ...paths, ...viewPaths(entry, base) };
  }
  return {
    openapi: "3.1.0",
    info: { title: options.title ?? "Semantic views", version: options.version ?? "1.0.0" },
    paths,
    components: { schemas },
  };
}
