/**
 * Warehouse type text → how the value arrives in JavaScript (README "How values arrive"), read from
 * the dialect's type table, the same one its driver classifies result columns with. The generator
 * turns the resulting `ValueKind` into a TypeScript type and a TypeBox schema (`KIND_TYPINGS`).
 */
import type { BackendType } from "../runtime/config/types.js";
import { DATABRICKS_TYPES } from "../runtime/dialects/databricks/databricks-types.js";
import { DUCKDB_TYPES } from "../runtime/dialects/duckdb/duckdb-types.js";
import { SNOWFLAKE_TYPES } from "../runtime/dialects/snowflake/snowflake-types.js";
import { KIND_TYPINGS, type TypeTable } from "../runtime/dialects/type-table.js";
import type { ValueKind } from "../runtime/driver/database-connection.js";

const TYPE_TABLES: Readonly<Record<BackendType, TypeTable>> = {
  backend_a: SNOWFLAKE_TYPES,
  backend_b: DATABRICKS_TYPES,
  backend_c: DUCKDB_TYPES,
};

/** How a column of warehouse type `type` arrives on `backend`; `"other"` when the type is unknown. */
export function valueKindOf(backend: BackendType, type: string): ValueKind {
  return TYPE_TABLES[backend].kindOf(type);
}

/** The TypeScript type a value of this kind arrives as. */
export function tsTypeOf(kind: ValueKind): string {
  return KIND_TYPINGS[kind].tsType;
}
