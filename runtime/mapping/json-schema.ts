/**
 * The JSON Schema of what `toJson` writes for values of a model: `lib`'s own schemas and TypeBox's
 * `bigint` type have no JSON Schema meaning, so for OpenAPI documents they are rewritten to the
 * wire form — Decimal → `number` (exact digits), bigint → `integer` (`format: "int64"` unless the
 * schema says otherwise), Date → `string` with `format: "date-time"` (or the schema's own `"date"`).
 * Everything else is copied as is.
 */
import { libTypeOf } from "./schema-types.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function copy(value: unknown): Json {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value === "bigint") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  if (value === null || typeof value !== "object")
    return typeof value === "function" || value === undefined ? null : (value as Json);
  const source = value as Record<string, unknown>;
  const out: { [key: string]: Json } = {};
  const lib = libTypeOf(source);
  for (const key of Object.keys(source)) {
    if (key === "x-lib-type" || key.startsWith("~")) continue;
    if (source[key] === undefined || typeof source[key] === "function") continue;
    out[key] = copy(source[key]);
  }
  if (lib === "decimal") return { type: "number", ...out, "x-lib-type": "decimal" };
  if (lib === "date") return { type: "string", format: "date-time", ...out };
  if (lib === "bigint" || source["type"] === "bigint")
    return { ...out, type: "integer", ...(out["format"] === undefined ? { format: "int64" } : {}) };
  return out;
}

/** A plain JSON Schema (no TypeBox internals) describing the JSON `toJson` writes for `schema`'s values. */
export function toJsonSchema(schema: unknown): Record<string, Json> {
  const out = copy(schema);
  if (out === null || typeof out !== "object" || Array.isArray(out))
    throw new TypeError("toJsonSchema expects a schema object");
  return out;
}
