/**
 * Binding values in the types DuckDB resolved for a statement's parameters (the semantic layer's
 * lifted where_clause values: duckdb-values.ts `boundValuesOf`), one native call per value.
 *
 * node-api's `bind(values, types)` makes two native calls per value (`create_<type>` for a
 * `duckdb_value`, then `bind_value`) after a JavaScript switch over the type; its typed binders
 * (`bindVarchar`, `bindBigInt`, ...) call `duckdb_bind_<type>` directly: ~0.5 µs instead of ~3 µs per
 * value on this machine, warm. Same value, same type, so DuckDB sees the same binding (no re-plan).
 * A statement's binders are made once from its parameter types; a type without a direct binder
 * (nested, enum, TIMESTAMP WITH TIME ZONE, ...) binds through `bindValue` with its type, as before.
 */
import type { DuckDBPreparedStatement, DuckDBType, DuckDBValue } from "@duckdb/node-api";
import { duckdb } from "./duckdb-api.js";

/** Binds `value` to parameter `index` (1-based) of `statement`. */
export type Binder = (statement: DuckDBPreparedStatement, index: number, value: DuckDBValue) => void;

type Statement = DuckDBPreparedStatement;
type Args<M extends keyof Statement> = Statement[M] extends (index: number, value: infer V) => void ? V : never;

let byTypeId: ReadonlyMap<number, Binder> | undefined;

/** The typed binders by DuckDB type id (made on first use: node-api is an optional peer). */
function directBinders(): ReadonlyMap<number, Binder> {
  if (byTypeId !== undefined) return byTypeId;
  const { DuckDBTypeId: Id } = duckdb();
  byTypeId = new Map<number, Binder>([
    [Id.BOOLEAN, (s, i, v) => s.bindBoolean(i, v as boolean)],
    [Id.TINYINT, (s, i, v) => s.bindTinyInt(i, v as number)],
    [Id.SMALLINT, (s, i, v) => s.bindSmallInt(i, v as number)],
    [Id.INTEGER, (s, i, v) => s.bindInteger(i, v as number)],
    [Id.BIGINT, (s, i, v) => s.bindBigInt(i, v as bigint)],
    [Id.HUGEINT, (s, i, v) => s.bindHugeInt(i, v as bigint)],
    [Id.UTINYINT, (s, i, v) => s.bindUTinyInt(i, v as number)],
    [Id.USMALLINT, (s, i, v) => s.bindUSmallInt(i, v as number)],
    [Id.UINTEGER, (s, i, v) => s.bindUInteger(i, v as number)],
    [Id.UBIGINT, (s, i, v) => s.bindUBigInt(i, v as bigint)],
    [Id.UHUGEINT, (s, i, v) => s.bindUHugeInt(i, v as bigint)],
    [Id.DOUBLE, (s, i, v) => s.bindDouble(i, v as number)],
    [Id.VARCHAR, (s, i, v) => s.bindVarchar(i, v as string)],
    [Id.DECIMAL, (s, i, v) => s.bindDecimal(i, v as Args<"bindDecimal">)],
    [Id.DATE, (s, i, v) => s.bindDate(i, v as Args<"bindDate">)],
    [Id.TIMESTAMP, (s, i, v) => s.bindTimestamp(i, v as Args<"bindTimestamp">)],
  ]);
  return byTypeId;
}

/**
 * The binder for a parameter of `type`: its typed method, or `bindValue` with the type for a type
 * without one and for an aliased type (JSON, a user type: bound as itself). NULL binds as NULL.
 */
export function binderFor(type: DuckDBType): Binder {
  const typed = type.alias === undefined ? directBinders().get(type.typeId) : undefined;
  const binder: Binder = typed ?? ((statement, index, value) => statement.bindValue(index, value, type));
  return (statement, index, value) => (value === null ? statement.bindNull(index) : binder(statement, index, value));
}

/** Binds `values` to `statement` with one binder per parameter (`binders[i]` for parameter i + 1). */
export function bindTyped(statement: Statement, binders: readonly Binder[], values: readonly DuckDBValue[]): void {
  for (let i = 0; i < values.length; i++) binders[i]!(statement, i + 1, values[i]!);
}
