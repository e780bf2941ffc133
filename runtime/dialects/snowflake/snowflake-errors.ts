/**
 * Maps snowflake-sdk errors onto the DB-API style `WarehouseError` classes.
 *
 * A statement error (`OperationFailedError`) carries Snowflake's error code (e.g. `001003`) and a
 * SQLSTATE. The SQLSTATE class decides, with two code-level exceptions:
 * - `002003` / SQLSTATE `42S02` (object does not exist or not authorized) → `InternalError`: a
 *   missing semantic view arrives as `InternalError` (README "Errors"), as on backend C, whose
 *   built-in layer reports a missing view the same way.
 * - `000604` / `57014` (statement cancelled) → `OperationalError`, like DuckDB's interrupt.
 * Otherwise: `42xxx` → ProgrammingError, `22xxx` → DataError, `23xxx` → IntegrityError,
 * `0Axxx` → NotSupportedError, `08xxx`/`53xxx`/`57xxx`/`40xxx`/`25xxx` → OperationalError,
 * `XXxxx` → InternalError, anything else → `WarehouseError`. `code` is Snowflake's code.
 * The sdk's messages never carry credentials; ours name no secret either.
 */
import { InternalError, OperationalError, WarehouseError } from "../../errors.js";
import { errorClassForSqlState, type WarehouseErrorClass } from "../../driver/sqlstate.js";

const BY_CODE: ReadonlyMap<string, WarehouseErrorClass> = new Map<string, WarehouseErrorClass>([
  ["002003", InternalError],
  ["000604", OperationalError],
  ["000630", OperationalError], // statement timeout
]);

const BY_SQLSTATE: ReadonlyMap<string, WarehouseErrorClass> = new Map<string, WarehouseErrorClass>([
  ["42S02", InternalError],
  ["57014", OperationalError],
]);

/** The fields of a snowflake-sdk error this module reads. */
export interface SnowflakeSdkError {
  readonly name?: string;
  /** Set on a `SnowflakeDriverError` copy: the sdk's own error name. */
  readonly sdkName?: string;
  readonly message?: string;
  readonly code?: string | number;
  readonly sqlState?: string;
  /** Set on a `SnowflakeDriverError` copy: the failed statement's query id. */
  readonly queryId?: string;
}

export function mapSnowflakeError(error: unknown): WarehouseError {
  if (error instanceof WarehouseError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as SnowflakeSdkError;
  const message = typeof e.message === "string" && e.message !== "" ? e.message : String(error);
  const code = e.code === undefined || e.code === null ? undefined : String(e.code);
  const sqlState = typeof e.sqlState === "string" ? e.sqlState.toUpperCase() : undefined;
  const ErrorClass =
    (code !== undefined ? BY_CODE.get(code) : undefined) ??
    (sqlState !== undefined ? (BY_SQLSTATE.get(sqlState) ?? errorClassForSqlState(sqlState)) : undefined) ??
    WarehouseError;
  const detail = sqlState !== undefined ? ` (SQLSTATE ${sqlState}${code !== undefined ? `, code ${code}` : ""})` : "";
  const queryId = typeof e.queryId === "string" && e.queryId !== "" ? e.queryId : undefined;
  return new ErrorClass(`${message}${detail}`, { cause: error, code, ...(queryId === undefined ? {} : { queryId }) });
}

/**
 * Whether an error means the connection itself is unusable (network, session gone, terminated),
 * as opposed to a statement the warehouse rejected. Such connections report `ping() === false`.
 */
export function isConnectionLevelError(error: unknown): boolean {
  const e = (typeof error === "object" && error !== null ? error : {}) as SnowflakeSdkError;
  const name = e.sdkName ?? e.name;
  if (name === "NetworkError" || name === "RequestFailedError" || name === "RequestTimeoutError") return true;
  const code = e.code === undefined ? "" : String(e.code);
  // SQLSTATE class 08: connection exception (e.g. 407002 "terminated connection", after the sdk
  // gave up on a session the warehouse forgot).
  if (typeof e.sqlState === "string" && e.sqlState.startsWith("08")) return true;
  // 390xxx: session/authentication (expired, gone, must log in again); 4055xx / 407002: connection terminated.
  return /^390\d{3}$/.test(code) || /^4055\d\d$/.test(code) || code === "407002";
}

/**
 * SQLAlchemy's `is_disconnect` for backend A: the error, as a statement raised it (mapped to a
 * `WarehouseError` whose cause is the sdk's error copy) or raw, means the session is gone, so the
 * pool must not reuse this connection nor its siblings from before the outage.
 */
export function isSnowflakeDisconnect(error: unknown): boolean {
  if (error instanceof WarehouseError) {
    return (
      error.code === "request_timeout" || error.code === "warehouse_unreachable" || isConnectionLevelError(error.cause)
    );
  }
  return isConnectionLevelError(error);
}
