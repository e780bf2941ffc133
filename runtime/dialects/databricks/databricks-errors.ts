/**
 * Maps `@databricks/sql` errors onto the DB-API style `WarehouseError` classes, by SQLSTATE and
 * Databricks error class. Errors are recognized by shape, not `instanceof`: the driver's classes
 * are not exported from its root, and its `StatusError` does not even extend `Error`.
 *
 * - `OperationStateError` (statement failed while running): `response.sqlState`/`errorMessage`.
 * - `StatusError` (refused at ExecuteStatement, e.g. a syntax error): only a message; its
 *   `SQLSTATE: xxxxx` suffix and `[ERROR_CLASS]` prefix are read from the text.
 *
 * Decisions: a missing table or view (`TABLE_OR_VIEW_NOT_FOUND`, SQLSTATE 42P01) is an
 * `InternalError`, like a missing semantic view on backend C (README "Errors": a missing view arrives as
 * InternalError); other 42xxx are `ProgrammingError`; 22xxx `DataError`; 23xxx `IntegrityError`;
 * 0A000 `NotSupportedError`; 08/40/53/54/57/58, cancellation, network failures (the warehouse went
 * away mid-statement) and an expired session `OperationalError`; XX `InternalError`.
 * Secrets are replaced by `[redacted]` in every message, in every form the driver may echo them
 * (`secrets` holds those forms: driver/secret-redaction.ts), and a driver error holding one is
 * kept as the cause only as a redacted copy.
 */
import { InternalError, OperationalError, WarehouseError } from "../../errors.js";
import { errorClassForSqlState, type WarehouseErrorClass } from "../../driver/sqlstate.js";
import { redactText, withoutSecrets } from "../../driver/secret-redaction.js";

/** Error classes whose SQLSTATE alone would say "programming error" but that mean a missing view. */
const MISSING_VIEW_CLASSES = new Set(["TABLE_OR_VIEW_NOT_FOUND", "METRIC_VIEW_NOT_FOUND", "VIEW_NOT_FOUND"]);

interface ErrorShape {
  readonly message: string;
  readonly sqlState: string | undefined;
  readonly errorClass: string | undefined;
  /** The driver's own code: OperationStateError's CANCELED/ERROR/..., StatusError's number. */
  readonly driverCode: string | undefined;
}

function shapeOf(error: unknown): ErrorShape {
  const e = (typeof error === "object" && error !== null ? error : {}) as {
    message?: unknown;
    errorCode?: unknown;
    code?: unknown;
    response?: { sqlState?: unknown; errorMessage?: unknown; displayMessage?: unknown };
  };
  const message =
    (typeof e.response?.errorMessage === "string" && e.response.errorMessage) ||
    (typeof e.message === "string" ? e.message : String(error));
  const sqlState =
    (typeof e.response?.sqlState === "string" && e.response.sqlState !== "" ? e.response.sqlState : undefined) ??
    /SQLSTATE:\s*([0-9A-Z]{5})/.exec(message)?.[1];
  const errorClass = /^\s*\[([A-Z0-9_.]+)\]/.exec(message)?.[1];
  const driverCode = typeof e.errorCode === "string" ? e.errorCode : e.code === undefined ? undefined : String(e.code);
  return { message, sqlState, errorClass, driverCode };
}

/** Network failures (node-fetch `FetchError` codes) and the driver's exhausted retries. */
const NETWORK_CODES = /^(E[A-Z]+|ATTEMPTS_EXCEEDED|TIMEOUT_EXCEEDED|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_.*|UNABLE_TO_.*)$/;

function classFor(shape: ErrorShape): WarehouseErrorClass {
  if (shape.driverCode === "CANCELED" || shape.driverCode === "TIMEOUT" || shape.driverCode === "CLOSED")
    return OperationalError;
  if (shape.sqlState === undefined && shape.driverCode !== undefined && NETWORK_CODES.test(shape.driverCode))
    return OperationalError;
  const errorClass = shape.errorClass?.split(".")[0];
  if (errorClass !== undefined && MISSING_VIEW_CLASSES.has(errorClass)) return InternalError;
  const state = shape.sqlState;
  if (state === undefined)
    return /invalid (session|operation)handle/i.test(shape.message) ? OperationalError : WarehouseError;
  if (state === "42P01") return InternalError;
  return errorClassForSqlState(state);
}

/** Driver codes of a transport that is gone (node-fetch system errors, exhausted retries). */
const DISCONNECT_CODES =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ESOCKETTIMEDOUT|ATTEMPTS_EXCEEDED|TIMEOUT_EXCEEDED)$/;
const GONE_SESSION = /invalid (session|operation)handle|session (does not exist|has expired|is closed)/i;

/**
 * SQLAlchemy's `is_disconnect` for backend B: the error (mapped or raw) means the session or the
 * transport is gone (a warehouse restart forgets every session), so the pool must not reuse this
 * connection nor its siblings from before the outage.
 */
export function isDatabricksDisconnect(error: unknown): boolean {
  const shape = shapeOf(error instanceof WarehouseError ? error.cause : error);
  if (GONE_SESSION.test(shape.message)) return true;
  return shape.sqlState === undefined && shape.driverCode !== undefined && DISCONNECT_CODES.test(shape.driverCode);
}

/** Replaces every form of a secret in a text with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactText(text, secrets);
}

/** Wraps an error raised while running a statement. `WarehouseError`s pass through. */
export function mapDatabricksError(error: unknown, secrets: readonly string[] = []): WarehouseError {
  if (error instanceof WarehouseError) return error;
  const shape = shapeOf(error);
  const ErrorClass = classFor(shape);
  const message = shape.driverCode === "CANCELED" ? "The statement was cancelled" : redact(shape.message, secrets);
  const code = shape.sqlState ?? shape.errorClass ?? shape.driverCode;
  const cause = withoutSecrets(error, secrets);
  return new ErrorClass(message, code === undefined ? { cause } : { cause, code });
}

/**
 * An error raised while opening a session (network, TLS, auth), as a plain `Error` whose message
 * names the endpoint and the failure but never a secret; the pool wraps it in `LibConnectionError`.
 */
export function connectionFailure(error: unknown, endpoint: string, secrets: readonly string[]): Error {
  const e = (typeof error === "object" && error !== null ? error : {}) as {
    message?: unknown;
    code?: unknown;
    statusCode?: unknown;
  };
  const detail = typeof e.message === "string" && e.message !== "" ? e.message : String(error);
  const status = typeof e.statusCode === "number" ? ` (HTTP ${e.statusCode})` : "";
  const code = typeof e.code === "string" ? ` [${e.code}]` : "";
  const authHint =
    e.statusCode === 401 || e.statusCode === 403 ? ": authentication failed, check the token or OAuth client" : "";
  return new Error(
    redact(`Could not open a backend_b session at ${endpoint}${authHint}${status}${code}: ${detail}`, secrets),
    { cause: withoutSecrets(error, secrets) },
  );
}
