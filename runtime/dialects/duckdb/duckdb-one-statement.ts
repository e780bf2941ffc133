/**
 * Runs SQL that must be exactly one statement: a rewritten `semantic_view()` call and the semantic
 * layer's own SQL (probes, EXPLAIN, catalog reads), which carry user-influenced text such as a raw
 * `where_clause`. The layer's lexer already refuses a second statement; this is the second wall, in
 * case a lexer and DuckDB ever disagree again: the text goes to DuckDB's `prepare`, which refuses
 * several statements, never to `run`, which would execute them all.
 *
 * One exception keeps a DuckDB feature: DuckDB itself expands a PIVOT without an IN list into two
 * statements it cannot prepare at once. Such text runs through the multi-statement call only when
 * it holds no `;` at all: without one DuckDB's grammar cannot read a second statement written in
 * the text, so whatever runs is the expansion of the one statement written.
 */
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBValue,
} from "@duckdb/node-api";
import { ProgrammingError } from "../../errors.js";
import { runPrepared } from "./duckdb-materialized.js";
import { bindersOf } from "./duckdb-statement-cache.js";
import { bindLiftedTyped, driverValueOf } from "./duckdb-typed-binders.js";
import type { BoundParameter, RawColumn } from "../../semantic/semantic-layer.js";

const MULTIPLE_STATEMENTS = /Cannot prepare multiple statements/i;

/** The statement prepared, or undefined for a `;`-free text DuckDB expands into several (see above). */
async function prepareOne(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement | undefined> {
  try {
    return await connection.prepare(sql);
  } catch (error) {
    if (!(error instanceof Error) || !MULTIPLE_STATEMENTS.test(error.message)) throw error;
    if (!sql.includes(";")) return undefined;
    throw new ProgrammingError(
      "Refused to run SQL built from a semantic-view statement: DuckDB reads more than one statement in it. " +
        "A semantic_view() call, its where_clause included, must stay one statement.",
      { cause: error, code: "multiple_statements" },
    );
  }
}

/** Binds `values`, or the layer's `lifted` values in the statement's own parameter types (duckdb-statement-cache.ts). */
function bind(
  prepared: DuckDBPreparedStatement,
  values: DuckDBValue[] | undefined,
  lifted: readonly BoundParameter[] | undefined,
): void {
  if (lifted !== undefined) bindLiftedTyped(prepared, bindersOf(prepared), lifted);
  else if (values !== undefined) prepared.bind(values);
}

/** Runs one statement materialized (its result outlives the statement, destroyed here). */
export async function runOneStatement(
  connection: DuckDBConnection,
  sql: string,
  values: DuckDBValue[] | undefined,
  lifted?: readonly BoundParameter[],
): Promise<DuckDBMaterializedResult> {
  const prepared = await prepareOne(connection, sql);
  if (prepared === undefined) return connection.run(sql, lifted === undefined ? values : lifted.map(driverValueOf));
  try {
    bind(prepared, values, lifted);
    return await runPrepared(prepared);
  } finally {
    prepared.destroySync();
  }
}

/** Starts one statement's streamed result. */
export async function streamOneStatement(
  connection: DuckDBConnection,
  sql: string,
  values: DuckDBValue[] | undefined,
  lifted?: readonly BoundParameter[],
): Promise<DuckDBResult> {
  const prepared = await prepareOne(connection, sql);
  if (prepared === undefined) return connection.stream(sql, lifted === undefined ? values : lifted.map(driverValueOf));
  try {
    bind(prepared, values, lifted);
    return await prepared.stream();
  } finally {
    prepared.destroySync();
  }
}

/**
 * The result columns of one statement as its prepared statement reports them (the type texts a run
 * reports), without running it (SqlSession.describe); undefined for a text DuckDB expands into several
 * statements, which must be run to be known. It is prepared as `runOneStatement` prepares it, so it
 * fails as running it would.
 */
export async function describeOneStatement(
  connection: DuckDBConnection,
  sql: string,
): Promise<RawColumn[] | undefined> {
  const prepared = await prepareOne(connection, sql);
  if (prepared === undefined) return undefined;
  try {
    const columns: RawColumn[] = [];
    for (let i = 0; i < prepared.columnCount; i++) {
      columns.push({ name: prepared.columnName(i), type: prepared.columnType(i).toString() });
    }
    return columns;
  } finally {
    prepared.destroySync();
  }
}
