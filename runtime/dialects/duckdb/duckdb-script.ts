/**
 * SQL scripts on one connection with autocommit emulated (duckdb-transaction.ts): run statement by
 * statement, so BEGIN, COMMIT and ROLLBACK update our transaction state instead of running as written.
 */
import type { DuckDBValue } from "@duckdb/node-api";
import type { QueryResult } from "../../driver/query-result.js";
import { ProgrammingError } from "../../errors.js";
import { EMPTY_RESULT } from "./duckdb-results.js";
import { splitSqlStatements } from "./duckdb-statements.js";
import type { DuckDBTransaction } from "./duckdb-transaction.js";

type Values = DuckDBValue[] | undefined;
/** Runs one statement that is not transaction control (in the connection's transaction or as an autocommit read). */
export type RunStatement = (statement: string, values: Values) => Promise<QueryResult>;

/** Every statement of `sql` in order; the last one's result. */
export async function runScript(
  sql: string,
  values: Values,
  transaction: DuckDBTransaction,
  run: RunStatement,
): Promise<QueryResult> {
  let last = EMPTY_RESULT;
  for (const statement of statementsOf(sql, values)) {
    last = (await transaction.control(statement)) ? EMPTY_RESULT : await run(statement, values);
  }
  return last;
}

/**
 * For a stream: every statement of `sql` but the last runs as `runScript` runs it. Returns what is
 * left to stream (`sql` itself when it is one statement), or undefined when that was transaction
 * control (handled here).
 */
export async function runAllButLast(
  sql: string,
  values: Values,
  transaction: DuckDBTransaction,
  run: RunStatement,
): Promise<string | undefined> {
  const statements = statementsOf(sql, values);
  let last = sql;
  if (statements.length > 1) {
    last = statements.pop()!;
    for (const statement of statements) {
      if (!(await transaction.control(statement))) await run(statement, undefined);
    }
  }
  return (await transaction.control(last)) ? undefined : last;
}

/** `sql` split into its statements; parameters go with a single statement only. */
function statementsOf(sql: string, values: Values): string[] {
  const statements = splitSqlStatements(sql);
  if (values !== undefined && statements.length > 1) {
    throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
  }
  return statements;
}
