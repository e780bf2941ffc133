/**
 * A streamed result's column plan: its columns (name, type text, value kind), DuckDB types and row
 * reader. Building it reads every column's logical type and plans a reader per column, once per
 * result. The results of one cached prepared statement share it while their columns stay the same:
 * each new result is checked against it by column count, names and type ids, which are read without
 * building a type (a statement that DuckDB re-binds after a catalog change may answer other columns).
 * Only plans whose types are fully given by their type id are shared: no DECIMAL width, no nested or
 * enum type, no alias (JSON), so equal ids mean equal types. An alias is not in the type id: a
 * statement re-bound from a VARCHAR column to a JSON one of the same name answers the same id. So
 * after a change of the catalog through the library (a commit, a session change:
 * `noteCatalogChange`) a kept plan is used again only once the result's columns are checked to carry
 * no alias (a logical type per column, ~4 µs each: once per plan and change, not per query).
 *
 * A plan is also kept by its statement's text (`notePreparedText`, told by the statement caches), so
 * the same text prepared on another connection — an overflow connection's first query, which every
 * connection of a burst runs — starts from the plan (and the row mappers compiled for its column
 * list) instead of reading its column types and planning its readers again. The same column check
 * guards it, and since the text may have been bound against another catalog (another database file
 * in the process), the statement's columns are also checked once for an alias before it takes the plan.
 */
import type { DuckDBResult, DuckDBType } from "@duckdb/node-api";
import type { ColumnInfo } from "../../driver/query-result.js";
import { duckdb } from "./duckdb-api.js";
import { planChunkRows, type ChunkReader } from "./duckdb-chunk-rows.js";
import { kindOfType } from "./duckdb-values.js";

export interface ResultPlan {
  readonly columns: readonly ColumnInfo[];
  readonly types: readonly DuckDBType[];
  readonly readRows: ChunkReader;
  /** The type ids, when every type is given by its id (the plan may be shared); else undefined. */
  readonly typeIds: readonly number[] | undefined;
}

interface KeptPlan {
  readonly plan: ResultPlan;
  /** The catalog epoch its columns' aliases were last checked in. */
  checkedIn: number;
}

const plans = new WeakMap<object, KeptPlan>();
/** The text each cached prepared statement was prepared from (the key of `plansByText`). */
const textOfStatement = new WeakMap<object, string>();
/** Plans by statement text, most recently made last; bounded in count and text length. */
const plansByText = new Map<string, KeptPlan>();
const MAX_TEXT_PLANS = 128;
/** Longer texts are not kept by text (they carry values, and a plan is cheap next to their prepare). */
const MAX_TEXT_PLAN_LENGTH = 8 * 1024;
/** Bumped by every commit and session change through the library. */
let catalogEpoch = 0;
let simpleIds: ReadonlySet<number> | undefined;

/** Type ids that alone give the whole type (no parameters, no children). */
function simpleTypeIds(): ReadonlySet<number> {
  if (simpleIds !== undefined) return simpleIds;
  const id = duckdb().DuckDBTypeId;
  simpleIds = new Set<number>([
    id.BOOLEAN,
    id.TINYINT,
    id.SMALLINT,
    id.INTEGER,
    id.BIGINT,
    id.UTINYINT,
    id.USMALLINT,
    id.UINTEGER,
    id.UBIGINT,
    id.HUGEINT,
    id.UHUGEINT,
    id.FLOAT,
    id.DOUBLE,
    id.VARCHAR,
    id.DATE,
    id.TIME,
    id.TIMESTAMP,
    id.TIMESTAMP_TZ,
    id.INTERVAL,
    id.BLOB,
    id.UUID,
  ]);
  return simpleIds;
}

/** The catalog may have changed (a commit or session change through the library): kept plans check aliases again. */
export function noteCatalogChange(): void {
  catalogEpoch++;
}

/** The plan of one result, built from its column types. */
export function planResult(result: DuckDBResult): ResultPlan {
  const types = result.columnTypes();
  const columns: ColumnInfo[] = new Array(types.length);
  const simple = simpleTypeIds();
  let typeIds: number[] | undefined = new Array<number>(types.length);
  for (let i = 0; i < types.length; i++) {
    const type = types[i]!;
    columns[i] = { name: result.columnName(i), type: type.toString(), kind: kindOfType(type) };
    if (typeIds !== undefined && simple.has(type.typeId) && type.alias === undefined) typeIds[i] = type.typeId;
    else typeIds = undefined;
  }
  return { columns, types, readRows: planChunkRows(types), typeIds };
}

/** `statement` (kept by a statement cache) was prepared from `sql`: its results may use that text's plan. */
export function notePreparedText(statement: object, sql: string): void {
  if (sql.length <= MAX_TEXT_PLAN_LENGTH) textOfStatement.set(statement, sql);
}

/**
 * The plan `statement`'s earlier results used — or, for its first result, the plan of another
 * statement of the same text — when this result's columns are the same, else a new one (kept).
 */
export function sharedPlan(statement: object, result: DuckDBResult): ResultPlan {
  let kept = plans.get(statement);
  const text = kept === undefined ? textOfStatement.get(statement) : undefined;
  if (text !== undefined) kept = plansByText.get(text);
  if (kept !== undefined && sameColumns(kept.plan, result)) {
    // Another statement's plan was made for another catalog perhaps (another database, the same
    // text): its aliases are checked once for this statement, whatever the epoch.
    if (kept.checkedIn !== catalogEpoch || text !== undefined) {
      if (!withoutAliases(result)) return replanned(statement, result, text);
      kept.checkedIn = catalogEpoch;
    }
    if (text !== undefined) plans.set(statement, kept);
    return kept.plan;
  }
  return replanned(statement, result, text ?? textOfStatement.get(statement));
}

/** A new plan for `result`, kept for `statement` (and its `text`) when it may be shared. */
function replanned(statement: object, result: DuckDBResult, text: string | undefined): ResultPlan {
  const plan = planResult(result);
  if (plan.typeIds === undefined) {
    plans.delete(statement);
    if (text !== undefined) plansByText.delete(text);
    return plan;
  }
  for (const column of plan.columns) Object.freeze(column);
  Object.freeze(plan.columns);
  const kept = { plan, checkedIn: catalogEpoch };
  plans.set(statement, kept);
  if (text !== undefined) {
    plansByText.delete(text); // re-inserted last: the oldest is evicted first
    plansByText.set(text, kept);
    if (plansByText.size > MAX_TEXT_PLANS) plansByText.delete(plansByText.keys().next().value!);
  }
  return plan;
}

function withoutAliases(result: DuckDBResult): boolean {
  const count = result.columnCount;
  for (let i = 0; i < count; i++) if (result.columnLogicalType(i).alias !== undefined) return false;
  return true;
}

function sameColumns(plan: ResultPlan, result: DuckDBResult): boolean {
  const ids = plan.typeIds!;
  if (result.columnCount !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) {
    if (result.columnTypeId(i) !== ids[i] || result.columnName(i) !== plan.columns[i]!.name) return false;
  }
  return true;
}
