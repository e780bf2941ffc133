/**
 * The Snowflake JSON answers the stand-in sends besides results: a status row, "query in progress"
 * (333333), and SQL errors with Snowflake's codes and SQLSTATEs (DuckDB's error categories mapped).
 */
import { StandInSqlError } from "./semantic-view-sql.js";

export interface Reply {
  readonly success: boolean;
  readonly code?: string | null;
  readonly message?: string | null;
  readonly data?: unknown;
}

export interface WireResult {
  readonly rowtype: unknown[];
  readonly rowset: (string | null)[][];
}

export function statusResult(status: string): WireResult {
  return {
    rowtype: [
      {
        name: "status",
        type: "text",
        length: 16777216,
        byteLength: 16777216,
        precision: null,
        scale: null,
        nullable: true,
        database: "",
        schema: "",
        table: "",
        collation: null,
      },
    ],
    rowset: [[status]],
  };
}

/** Snowflake's "query in progress" answer: the sdk GETs `getResultUrl` until the result is there. */
export function inProgressReply(queryId: string): Reply {
  return {
    success: true,
    code: "333333",
    message: "Query execution in progress. Query will be continued to be executed.",
    data: { getResultUrl: `/queries/${queryId}/result`, queryId, progressDesc: null, queryAbortsAfterSecs: 300 },
  };
}

export function sqlError(queryId: string, error: StandInSqlError): Reply {
  return {
    success: false,
    code: error.code,
    message: error.message,
    data: { sqlState: error.sqlState, queryId, errorCode: error.code, internalError: false, age: 0 },
  };
}

/** DuckDB's error categories as Snowflake codes and SQLSTATEs. */
export function duckdbToSnowflake(error: unknown): StandInSqlError {
  const message = error instanceof Error ? error.message : String(error);
  const category = /^([A-Za-z ]+?) Error:/.exec(message)?.[1]?.toLowerCase() ?? "";
  const [code, sqlState] =
    category === "parser"
      ? ["001003", "42000"]
      : category === "catalog"
        ? ["002003", "42S02"]
        : category === "binder"
          ? ["000904", "42000"]
          : category === "conversion" || category === "invalid input"
            ? ["100038", "22018"]
            : category === "out of range"
              ? ["100046", "22003"]
              : category === "constraint"
                ? ["100072", "23000"]
                : category === "not implemented"
                  ? ["002040", "0A000"]
                  : ["000603", "XX000"];
  return new StandInSqlError(`SQL compilation error:\n${message}`, code, sqlState);
}
