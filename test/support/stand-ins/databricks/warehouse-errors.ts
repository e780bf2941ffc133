import { StandInSqlError } from "./metric-view-sql.js";

/** A DuckDB error as the Databricks error class and SQLSTATE the warehouse would report. */
export function toDatabricksError(error: unknown): StandInSqlError {
  if (error instanceof StandInSqlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const missing = /Table with name (\S+?) does not exist/i.exec(message);
  if (missing) {
    return new StandInSqlError(
      "TABLE_OR_VIEW_NOT_FOUND",
      "42P01",
      `The table or view \`${missing[1]}\` cannot be found.`,
    );
  }
  const routine = /(?:Scalar|Aggregate|Table) Function with name (\S+?) does not exist/i.exec(message);
  if (routine) {
    return new StandInSqlError("UNRESOLVED_ROUTINE", "42883", `Cannot resolve routine \`${routine[1]}\`.`);
  }
  if (/^Parser Error/i.test(message))
    return new StandInSqlError("PARSE_SYNTAX_ERROR", "42601", `Syntax error: ${message}`);
  if (/^Binder Error/i.test(message))
    return new StandInSqlError("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", "42703", message);
  if (/^Conversion Error/i.test(message)) return new StandInSqlError("CAST_INVALID_INPUT", "22018", message);
  if (/^Out of Range Error/i.test(message)) return new StandInSqlError("ARITHMETIC_OVERFLOW", "22003", message);
  if (/division by zero/i.test(message)) return new StandInSqlError("DIVIDE_BY_ZERO", "22012", message);
  return new StandInSqlError("INTERNAL_ERROR", "XX000", message);
}
