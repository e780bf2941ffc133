/**
 * When a property's schema check can be skipped per value: the schema is a bare type (no bound,
 * pattern, format or enum: only annotations) and the column's kind, converted as `into()` converts
 * it, can only produce values of that type. An INTEGER or BIGINT column under `Type.Integer()`
 * yields safe integers (a larger BIGINT fails its conversion first), a VARCHAR under `Type.String()`
 * strings. A DOUBLE under a bare `Type.Number()` needs only what TypeBox checks of a number,
 * `Number.isFinite` (NaN and ±Infinity fail). A DATE keeps `DateType()`'s check. Skipping the
 * compiled validator call per value (and its garbage) was most of `iterInto()`'s cost over `stream()`.
 */
import type { TSchema } from "typebox";
import type { ValueKind } from "../driver/query-result.js";
import type { ModelType } from "./model-type.js";

/** Schema keys that describe a value and never constrain it. */
const ANNOTATIONS = new Set(["title", "description", "$id", "$comment", "examples", "default", "deprecated"]);

/** Per model type: the column kinds whose values always satisfy the bare type, and the schema that says it. */
const SATISFIED_BY: Partial<Record<ModelType, { readonly kinds: readonly ValueKind[]; readonly bare: BareType }>> = {
  integer: { kinds: ["integer", "bigint"], bare: ["type", "integer"] },
  number: { kinds: ["integer", "bigint"], bare: ["type", "number"] },
  string: { kinds: ["string"], bare: ["type", "string"] },
  boolean: { kinds: ["boolean"], bare: ["type", "boolean"] },
  bigint: { kinds: ["bigint"], bare: ["x-lib-type", "bigint"] },
  decimal: { kinds: ["decimal"], bare: ["x-lib-type", "decimal"] },
};

/** The one key/value pair a bare schema of the type has besides annotations. */
type BareType = readonly [key: string, value: string];

function isBare(schema: unknown, [typeKey, typeValue]: BareType): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const s = schema as Record<string, unknown>;
  const anyOf = s["anyOf"];
  if (Array.isArray(anyOf)) {
    // `T | null`: nulls never reach the check; the other members must all be bare.
    const keys = Object.keys(s).filter((k) => k !== "anyOf");
    return (
      keys.every((k) => ANNOTATIONS.has(k)) &&
      anyOf.every((m) => isBare(m, ["type", "null"]) || isBare(m, [typeKey, typeValue]))
    );
  }
  if (s[typeKey] !== typeValue) return false;
  return Object.keys(s).every((k) => k === typeKey || ANNOTATIONS.has(k));
}

/** True when every non-null value of a `kind` column, converted for `type`, passes `schema`. */
export function checkImplied(schema: TSchema, type: ModelType, kind: ValueKind): boolean {
  const satisfied = SATISFIED_BY[type];
  return satisfied !== undefined && satisfied.kinds.includes(kind) && isBare(schema, satisfied.bare);
}

/**
 * The check a value of a `kind` column needs against `schema` when a cheaper one than TypeBox's
 * compiled validator says the same: `null` for none at all (`checkImplied`), `Number.isFinite` for a
 * float under a bare number; undefined when the compiled validator must run.
 */
export function cheapCheck(
  schema: TSchema,
  type: ModelType,
  kind: ValueKind,
): ((value: unknown) => boolean) | null | undefined {
  if (checkImplied(schema, type, kind)) return null;
  if (type === "number" && kind === "float" && isBare(schema, ["type", "number"])) return isFiniteNumber;
  return undefined;
}

const isFiniteNumber = (value: unknown): boolean => Number.isFinite(value);
