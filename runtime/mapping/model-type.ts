/**
 * Reads what a model property expects from its TypeBox schema: the value type, whether null is
 * allowed, whether the property may be absent, and a readable label for error messages.
 */
import type { TSchema } from "typebox";
import { typebox } from "./typebox.js";
import { libTypeOf } from "./schema-types.js";

/** The value types a model property can ask for. `unknown` takes anything; `other` is any other schema (arrays, objects, ...). */
export type ModelType =
  "integer" | "number" | "bigint" | "decimal" | "string" | "boolean" | "date" | "unknown" | "other";

export interface ModelProperty {
  readonly name: string;
  readonly schema: TSchema;
  readonly type: ModelType;
  readonly nullable: boolean;
  readonly optional: boolean;
  /** e.g. `integer`, `string | null`, `Decimal`. */
  readonly label: string;
  /** JSON Schema's `format` of the (non-null) schema, e.g. `"date"` for `DateType({ format: "date" })`. */
  readonly format: string | undefined;
}

const LABELS: Record<ModelType, string> = {
  integer: "integer",
  number: "number",
  bigint: "bigint",
  decimal: "Decimal",
  string: "string",
  boolean: "boolean",
  date: "Date",
  unknown: "unknown",
  other: "other",
};

function fromValues(values: readonly unknown[]): ModelType {
  if (values.length === 0) return "other";
  if (values.every((v) => typeof v === "string")) return "string";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  if (values.every((v) => typeof v === "bigint")) return "bigint";
  if (values.every((v) => typeof v === "number"))
    return values.every((v) => Number.isInteger(v)) ? "integer" : "number";
  return "other";
}

function isNullSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "null";
}

/** The value type of one (non-null) schema. */
function typeOf(schema: TSchema): ModelType {
  const lib = libTypeOf(schema);
  if (lib !== undefined) return lib;
  const s = schema as Record<string, unknown>;
  if ("const" in s) return fromValues([s["const"]]);
  if (Array.isArray(s["enum"])) return fromValues(s["enum"] as unknown[]);
  if (Array.isArray(s["anyOf"])) {
    const members = (s["anyOf"] as TSchema[]).map(typeOf);
    const first = members[0];
    return first !== undefined && members.every((m) => m === first) ? first : "other";
  }
  switch (s["type"]) {
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "bigint":
      return "bigint";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case undefined:
      return Object.keys(s).some((k) => k === "allOf" || k === "oneOf" || k === "not" || k === "$ref")
        ? "other"
        : "unknown";
    default:
      return "other";
  }
}

export function describeProperty(name: string, schema: TSchema, required: boolean): ModelProperty {
  let nullable = false;
  let type: ModelType;
  let format = formatOf(schema);
  const anyOf = (schema as { anyOf?: unknown }).anyOf;
  if (Array.isArray(anyOf) && anyOf.some(isNullSchema)) {
    nullable = true;
    const rest = (anyOf as TSchema[]).filter((m) => !isNullSchema(m));
    const types = rest.map(typeOf);
    const first = types[0];
    type = first === undefined ? "unknown" : types.every((t) => t === first) ? first : "other";
    const formats = new Set(rest.map(formatOf));
    if (formats.size === 1) [format] = formats;
  } else {
    type = typeOf(schema);
    if (type === "unknown") nullable = true;
  }
  const optional = !required || typebox().Type.IsOptional(schema);
  const label = LABELS[type] + (nullable && type !== "unknown" ? " | null" : "") + (optional ? " (optional)" : "");
  return { name, schema, type, nullable, optional, label, format };
}

function formatOf(schema: TSchema): string | undefined {
  const format = (schema as { format?: unknown }).format;
  return typeof format === "string" ? format : undefined;
}

/** The properties of an object schema, in declaration order. */
export function describeModel(model: TSchema): ModelProperty[] {
  const m = model as { type?: unknown; properties?: Record<string, TSchema>; required?: unknown };
  if (m.type !== "object" || typeof m.properties !== "object" || m.properties === null) {
    throw new TypeError("into() expects a TypeBox object schema (Type.Object({...}))");
  }
  const required = new Set(Array.isArray(m.required) ? (m.required as string[]) : []);
  return Object.keys(m.properties).map((name) => describeProperty(name, m.properties![name]!, required.has(name)));
}

/** The model's display name for errors: its `title`, else `model`. */
export function modelName(model: TSchema): string {
  const title = (model as { title?: unknown }).title;
  return typeof title === "string" && title !== "" ? title : "model";
}
