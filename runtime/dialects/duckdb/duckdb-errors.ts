/**
 * Maps DuckDB errors onto the DB-API style `WarehouseError` classes. DuckDB raises plain `Error`s
 * whose category is only the message prefix ("Parser Error: ...", "Catalog Error: ..."), so the
 * prefix decides the class. Errors of the built-in semantic layer map by their kind.
 */
import {
  DataError,
  IntegrityError,
  InternalError,
  NotSupportedError,
  OperationalError,
  ProgrammingError,
  ValidationError,
  WarehouseError,
} from "../../errors.js";
import type { WarehouseErrorClass } from "../../driver/sqlstate.js";
import { SemanticViewError } from "../../semantic/semantic-error.js";

/** DuckDB's exception types (the message prefix before " Error:") and the class each maps to. */
const BY_PREFIX: ReadonlyMap<string, WarehouseErrorClass> = new Map<string, WarehouseErrorClass>([
  ["parser", ProgrammingError],
  ["binder", ProgrammingError],
  ["catalog", ProgrammingError],
  ["syntax", ProgrammingError],
  ["invalid input", ProgrammingError],
  ["invalid type", ProgrammingError],
  ["invalid configuration", ProgrammingError],
  ["parameter not allowed", ProgrammingError],
  ["parameter not resolved", ProgrammingError],
  ["dependency", ProgrammingError],
  ["missing extension", ProgrammingError],
  ["conversion", DataError],
  ["out of range", DataError],
  ["mismatch type", DataError],
  ["arithmetic", DataError],
  ["decimal", DataError],
  ["constraint", IntegrityError],
  ["not implemented", NotSupportedError],
  ["interrupt", OperationalError],
  ["transactioncontext", OperationalError],
  ["transaction", OperationalError],
  ["io", OperationalError],
  ["http", OperationalError],
  ["connection", OperationalError],
  ["out of memory", OperationalError],
  ["permission", OperationalError],
  ["sequence", OperationalError],
  ["serialization", OperationalError],
  ["fatal", InternalError],
  ["internal", InternalError],
]);

const PREFIX = /^([A-Za-z][A-Za-z ]*?) Error: /;

/** Semantic-layer error kinds: a missing view arrives as InternalError (README "Errors"). */
const BY_SEMANTIC_KIND: Readonly<Record<SemanticViewError["kind"], WarehouseErrorClass>> = {
  not_found: InternalError,
  parse: ProgrammingError,
  invalid: ProgrammingError,
  execution: OperationalError,
};

/** DuckDB refuses every statement on this instance: a fatal error invalidated the database. */
export function isDuckDBInvalidated(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^FATAL Error: /i.test(message) || /database has been invalidated/i.test(message);
}

/**
 * SQLAlchemy's `is_disconnect` for backend C: the connection was closed under us, or the database
 * was invalidated by a fatal error (DuckDB refuses every further statement on that instance).
 */
export function isDuckDBDisconnect(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return (
    /^(Connection|FATAL) Error: /i.test(message) ||
    /database has been invalidated|connection (is )?(closed|disconnected)/i.test(message)
  );
}

/**
 * Wraps an error thrown while running a statement. Already-mapped `WarehouseError`s pass through,
 * and so does a `ValidationError` (a parameter DuckDB cannot take exactly: the caller's mistake);
 * anything that is not an `Error` from DuckDB or the semantic layer becomes a `WarehouseError`.
 * The original is the `cause`; `code` is DuckDB's exception type (e.g. `Catalog`).
 */
export function mapDuckDBError(error: unknown): WarehouseError | ValidationError {
  if (error instanceof WarehouseError || error instanceof ValidationError) return error;
  if (isSemanticViewError(error)) {
    return new BY_SEMANTIC_KIND[error.kind](error.message, { cause: error, code: `semantic_${error.kind}` });
  }
  const message = error instanceof Error ? error.message : String(error);
  const match = PREFIX.exec(message);
  if (match) {
    const type = match[1]!;
    const ErrorClass = BY_PREFIX.get(type.toLowerCase()) ?? WarehouseError;
    return new ErrorClass(message, { cause: error, code: type });
  }
  return new WarehouseError(message, { cause: error });
}

/** By class, or by shape for a copy of the class from another module instance (lazy imports). */
function isSemanticViewError(error: unknown): error is SemanticViewError {
  if (error instanceof SemanticViewError) return true;
  return (
    error instanceof Error &&
    error.name === "SemanticViewError" &&
    Object.hasOwn(BY_SEMANTIC_KIND, (error as { kind?: unknown }).kind as string)
  );
}

/** DuckDB's error for COMMIT/ROLLBACK when no transaction is open. */
export function isNoActiveTransaction(error: unknown): boolean {
  return error instanceof Error && /no transaction is active/i.test(error.message);
}
