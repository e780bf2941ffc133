/**
 * Binding values in the types DuckDB resolved for a statement's parameters, one native call per value.
 *
 * node-api's `bind(values, types)` makes two native calls per value (`create_<type>` for a
 * `duckdb_value`, then `bind_value`) after a JavaScript switch over the type; its typed binders
 * (`bindVarchar`, `bindBigInt`, ...) call `duckdb_bind_<type>` directly: ~0.5 µs instead of ~3 µs per
 * value on this machine, warm. Same value, same type, so DuckDB sees the same binding (no re-plan).
 * A statement's binders are its binding plan, made once from its parameter types (the statement
 * cache keeps them with the statement); a type without a direct binder (nested, enum, TIMESTAMP WITH
 * TIME ZONE, ...) binds through `bindValue` with its type, as before.
 *
 * The semantic layer's lifted where_clause values (`BoundParameter`s, already in their parameter's
 * type) bind straight from their fields (`bindLiftedTyped`): a string, boolean, number or bigint is
 * handed to its binder as it is, with no list of driver values made first.
 */
import type { DuckDBPreparedStatement, DuckDBType, DuckDBValue } from "@duckdb/node-api";
import { LibError } from "../../errors.js";
import type { BoundParameter } from "../../semantic/semantic-layer.js";
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

/**
 * A clear error instead of DuckDB's ("Can not bind to parameter number 2") or a run that fails on
 * a parameter left unbound (or, worse, uses the value an earlier run bound to it).
 */
function assertCount(given: number, binders: readonly Binder[]): void {
  if (given === binders.length) return;
  const parameters = binders.length === 1 ? "1 parameter" : `${binders.length} parameters`;
  throw new LibError(
    `Cannot bind ${given} value${given === 1 ? "" : "s"} to a prepared statement with ${parameters}: ` +
      "each parameter takes exactly one value (a bug in the library's where_clause value lifting: please report it).",
  );
}

/**
 * Binds `values` to `statement` with one binder per parameter (`binders[i]` for parameter i + 1,
 * `bindersOf(statement)`); a LibError naming both counts when they differ.
 */
export function bindTyped(statement: Statement, binders: readonly Binder[], values: readonly DuckDBValue[]): void {
  assertCount(values.length, binders);
  for (let i = 0; i < values.length; i++) binders[i]!(statement, i + 1, values[i]!);
}

/** `bindTyped` of the layer's lifted parameters, each bound from its own fields (no driver value list made first). */
export function bindLiftedTyped(
  statement: Statement,
  binders: readonly Binder[],
  parameters: readonly BoundParameter[],
): void {
  assertCount(parameters.length, binders);
  for (let i = 0; i < parameters.length; i++) {
    const parameter = parameters[i]!;
    const kind = parameter.kind;
    const value =
      kind === "varchar" || kind === "boolean" || kind === "number" || kind === "bigint"
        ? parameter.value
        : driverValueOf(parameter);
    binders[i]!(statement, i + 1, value);
  }
}

/** A lifted parameter as the driver value of its type (decimal, date, timestamp: node-api's value objects). */
export function driverValueOf(parameter: BoundParameter): DuckDBValue {
  switch (parameter.kind) {
    case "varchar":
    case "boolean":
    case "number":
    case "bigint":
      return parameter.value;
    case "decimal":
      return duckdb().decimalValue(parameter.unscaled, parameter.width, parameter.scale);
    case "date":
      return duckdb().dateValue(parameter.days);
    case "timestamp":
      return duckdb().timestampValue(parameter.micros);
    case "timestamptz":
      return duckdb().timestampTZValue(parameter.micros);
  }
}
