/**
 * The type a member's values have, read from its row DTO property (what `lib codegen` emits per
 * value kind: `Type.String`, `Type.Integer`, `BigIntType()`, `DecimalType()`, `DateType()`, ...).
 * A view declared without a DTO has members of type `"unknown"`: their request values pass as JSON
 * gives them.
 */
import { libTypeOf } from "../mapping/schema-types.js";

/** `date`: a calendar date (DATE; `format: "date"`); `timestamp`: an instant (TIMESTAMP; `format: "date-time"`). */
export type MemberType =
  "string" | "integer" | "number" | "bigint" | "decimal" | "boolean" | "date" | "timestamp" | "unknown";

export const MEMBER_TYPES: readonly MemberType[] = Object.freeze([
  "string",
  "integer",
  "number",
  "bigint",
  "decimal",
  "boolean",
  "date",
  "timestamp",
  "unknown",
]);

export interface TypedMember {
  readonly type: MemberType;
  readonly nullable: boolean;
  readonly description: string | undefined;
}

function plainType(schema: Record<string, unknown>): MemberType {
  const lib = libTypeOf(schema);
  // DateType({ format: "date" }) is a DATE column's; DateType() without it an instant's.
  if (lib === "date") return schema["format"] === "date" ? "date" : "timestamp";
  if (lib !== undefined) return lib;
  switch (schema["type"]) {
    case "string":
      return "string";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "bigint":
      return "bigint";
    case "boolean":
      return "boolean";
    default:
      return "unknown";
  }
}

/** The member type a DTO property schema stands for (a union with `Type.Null()` is nullable). */
export function memberTypeOf(schema: unknown): TypedMember {
  if (typeof schema !== "object" || schema === null) return { type: "unknown", nullable: true, description: undefined };
  const record = schema as Record<string, unknown>;
  const description = typeof record["description"] === "string" ? record["description"] : undefined;
  const variants = Array.isArray(record["anyOf"]) ? (record["anyOf"] as unknown[]) : undefined;
  if (variants === undefined) return { type: plainType(record), nullable: false, description };
  const isNull = (v: unknown) => (v as { type?: unknown } | null)?.type === "null";
  const others = variants.filter((v) => !isNull(v));
  const type =
    others.length === 1 && typeof others[0] === "object" && others[0] !== null
      ? plainType(others[0] as Record<string, unknown>)
      : "unknown";
  return { type, nullable: others.length < variants.length, description };
}
