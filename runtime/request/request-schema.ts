/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 and MCP tool inputs use them) of one view's requests and
 * rows: member names as enums per list, the builder's operators, the limits as bounds, and the row
 * from the generated DTO (`toJsonSchema`, so bigint and Decimal are exact JSON numbers).
 */
import { toJsonSchema } from "../mapping/json-schema.js";
import type { MemberType } from "./member-type.js";
import type { RequestLimits } from "./request-limits.js";
import { CONDITION_OPERATORS } from "./semantic-request.js";
import type { ViewEntry } from "./view-registry.js";

export type JsonSchema = { [key: string]: unknown };

const VALUE_SCHEMAS: Readonly<Record<MemberType, JsonSchema>> = {
  string: { type: "string" },
  integer: { type: "integer" },
  number: { type: "number" },
  bigint: { type: "integer", description: "exact integer (64-bit or wider)" },
  decimal: { type: "number", description: "exact decimal" },
  boolean: { type: "boolean" },
  date: { type: "string", format: "date" },
  timestamp: { type: "string", format: "date-time" },
  unknown: {},
};

/** The JSON Schema of one member's values in rows. */
export function valueSchema(type: MemberType, nullable: boolean): JsonSchema {
  const schema = VALUE_SCHEMAS[type];
  return nullable && type !== "unknown" ? { anyOf: [schema, { type: "null" }] } : { ...schema };
}

/** The row of `entry` with every member: the generated DTO when there is one. */
export function rowSchema(entry: ViewEntry): JsonSchema {
  if (entry.rowSchema !== undefined) return toJsonSchema(entry.rowSchema);
  return {
    type: "object",
    title: `${entry.className}Row`,
    properties: Object.fromEntries(entry.members.map((m) => [m.name, valueSchema(m.type, m.nullable)])),
  };
}

/** The row of a facts query on `entry` (every fact), from the generated `<View>Facts` DTO; undefined without one. */
export function factsRowSchema(entry: ViewEntry): JsonSchema | undefined {
  return entry.factsSchema === undefined ? undefined : toJsonSchema(entry.factsSchema);
}

function names(entry: ViewEntry, kind: string): string[] {
  return entry.members.filter((m) => m.kind === kind).map((m) => m.name);
}

function nameList(names: readonly string[], what: string, limits: RequestLimits): JsonSchema {
  return {
    type: "array",
    description: `${what} to select`,
    items: { type: "string", enum: names },
    uniqueItems: true,
    maxItems: Math.min(names.length, limits.maxMembers),
  };
}

/**
 * The condition tree of `entry` (`where`): `whereRef` is how the schema refers to itself
 * (`#/$defs/Where` inside a tool input, `#/components/schemas/SalesWhere` in OpenAPI).
 */
export function whereSchema(entry: ViewEntry, whereRef: string, limits: RequestLimits): JsonSchema {
  const filterable = entry.members.filter((m) => m.kind !== "metric");
  const list = { type: "array", items: { $ref: whereRef }, maxItems: limits.maxConditions };
  return {
    description:
      "A condition tree: { field, op, value } comparisons combined with and/or/not (metrics cannot be filtered)",
    anyOf: [
      {
        type: "object",
        properties: {
          field: { type: "string", enum: filterable.map((m) => m.name) },
          op: { type: "string", enum: [...CONDITION_OPERATORS] },
          value: {
            description:
              "eq/ne: a value or null; in/notIn: a list; between: [low, high]; like/startsWith/endsWith/contains: text; isNull/isNotNull: none. " +
              "64-bit integers, decimals and dates may be strings (parsed exactly).",
          },
        },
        required: ["field", "op"],
        additionalProperties: false,
      },
      { type: "object", properties: { and: list }, required: ["and"], additionalProperties: false },
      { type: "object", properties: { or: list }, required: ["or"], additionalProperties: false },
      { type: "object", properties: { not: { $ref: whereRef } }, required: ["not"], additionalProperties: false },
    ],
  };
}

/** The body of a query request for `entry` (`where` refers to `whereRef`). */
export function requestSchema(
  entry: ViewEntry,
  whereRef: string,
  limits: RequestLimits,
  maxLimit = limits.maxRows,
): JsonSchema {
  const all = entry.members.map((m) => m.name);
  const properties: JsonSchema = {
    view: { type: "string", const: entry.name, description: "The view (optional: the URL names it)" },
  };
  const metrics = names(entry, "metric");
  const dimensions = names(entry, "dimension");
  const facts = names(entry, "fact");
  if (metrics.length > 0) properties["metrics"] = nameList(metrics, "Metrics (aggregated)", limits);
  if (dimensions.length > 0) properties["dimensions"] = nameList(dimensions, "Dimensions (grouping)", limits);
  if (facts.length > 0) properties["facts"] = nameList(facts, "Facts (row level; not with metrics)", limits);
  properties["where"] = {
    description: "Filters on dimensions and facts; a list is ANDed",
    anyOf: [{ $ref: whereRef }, { type: "array", items: { $ref: whereRef } }],
  };
  properties["orderBy"] = {
    type: "array",
    description: 'Selected members: "revenue", "-revenue" (descending), or { field, direction, nulls }',
    maxItems: limits.maxOrderBy,
    items: {
      anyOf: [
        { type: "string", enum: all.flatMap((n) => [n, `-${n}`]) },
        {
          type: "object",
          properties: {
            field: { type: "string", enum: all },
            direction: { type: "string", enum: ["asc", "desc"] },
            nulls: { type: "string", enum: ["first", "last"] },
          },
          required: ["field"],
          additionalProperties: false,
        },
      ],
    },
  };
  if (entry.variables.length > 0) {
    const required = entry.variables.filter((v) => v.required).map((v) => v.name);
    properties["variables"] = {
      type: "object",
      description: "Values for the view's variables (bound as parameters); required ones have no default in the view",
      properties: Object.fromEntries(
        entry.variables.map((v) => [
          v.name,
          { ...valueSchema(v.type, false), ...(v.description === undefined ? {} : { description: v.description }) },
        ]),
      ),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
  }
  properties["limit"] = { type: "integer", minimum: 1, ...(Number.isFinite(maxLimit) ? { maximum: maxLimit } : {}) };
  properties["offset"] = { type: "integer", minimum: 0, maximum: limits.maxOffset };
  const required = entry.variables.some((v) => v.required) ? { required: ["variables"] } : {};
  return { type: "object", title: `${entry.className}Query`, properties, ...required, additionalProperties: false };
}
