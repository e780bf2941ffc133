/**
 * Backend C's `schema` field: the schema every new connection resolves unqualified names in.
 * An in-memory database starts empty, so the schema is created there; a database file must
 * already have it (creating schemas in a user's file as a side effect of connecting would be a surprise).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { OperationalError } from "../../errors.js";

/** A DuckDB string literal (single quotes doubled). */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A DuckDB quoted identifier (double quotes doubled). */
function identifier(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** Make `schema` the connection's current schema; runs before the connection's first transaction. */
export async function applyCurrentSchema(
  connection: DuckDBConnection,
  schema: string,
  inMemory: boolean,
): Promise<void> {
  if (inMemory) await connection.run(`CREATE SCHEMA IF NOT EXISTS ${identifier(schema)}`);
  try {
    // The setting's value is parsed as a (possibly qualified) name, so the quoted identifier goes inside the literal.
    await connection.run(`SET schema = ${literal(identifier(schema))}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OperationalError(
      `backend C: cannot use schema = ${JSON.stringify(schema)} as the current schema: ${reason}`,
      { cause: error },
    );
  }
}
