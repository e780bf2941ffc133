/**
 * Warehouse type text → how the value arrives in JavaScript (README "How values arrive"), read from
 * the dialect's type table (`DIALECTS[backend].types`), the one its driver classifies result columns
 * with. The generator turns the resulting `ValueKind` into a TypeScript type and a TypeBox schema
 * (`KIND_TYPINGS`, which `into()` reads its agreement rules from too).
 */
import type { ValueKind } from "../runtime/index.js";
import type { BackendType } from "../runtime/config/index.js";
import { dialectOf, KIND_TYPINGS } from "../runtime/internal.js";

/** How a column of warehouse type `type` arrives on `backend`; `"other"` when the type is unknown. */
export function valueKindOf(backend: BackendType, type: string): ValueKind {
  return dialectOf(backend).types.kindOf(type);
}

/** The TypeScript type a value of this kind arrives as. */
export function tsTypeOf(kind: ValueKind): string {
  return KIND_TYPINGS[kind].tsType;
}
