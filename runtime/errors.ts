/**
 * The library's error classes. Every error `lib` raises on purpose is one of these, so callers can
 * catch by class. Messages name the field or value at fault and never carry a secret.
 */

/** Base class of the library's own errors (not of warehouse errors: see {@link WarehouseError}). */
export class LibError extends Error {
  override name = "LibError";
}

/** Bad configuration: unknown type, wrong field type, conflicting fields, ... */
export class ValidationError extends LibError {
  override name = "ValidationError";
  /** Where the bad value came from, e.g. `.lib.toml [connections.default]`. */
  readonly source: string | undefined;
  /** The offending field, in the spelling the user wrote it (`pool_size`, `poolSize`). */
  readonly field: string | undefined;

  constructor(message: string, options: { source?: string; field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.source = options.source;
    this.field = options.field;
  }
}

/** No connection could be obtained (the original error is the `cause`). */
export class LibConnectionError extends LibError {
  override name = "LibConnectionError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** One disagreement between a model property and the column that feeds it. */
export interface SchemaMismatch {
  readonly field: string;
  readonly modelType: string;
  readonly columnType: string;
  readonly reason?: string;
}

/** `cursor.into()` found model properties that disagree with the arriving columns. */
export class LibSchemaMismatchError extends LibError {
  override name = "LibSchemaMismatchError";
  readonly mismatches: readonly SchemaMismatch[];
  constructor(model: string, mismatches: readonly SchemaMismatch[]) {
    const detail = mismatches
      .map((m) => `${m.field}: model ${m.modelType} vs column ${m.columnType}${m.reason ? ` (${m.reason})` : ""}`)
      .join("; ");
    super(`Model ${model} does not match the result: ${detail}`);
    this.mismatches = Object.freeze([...mismatches]);
  }
}

/** A query was cancelled by an AbortSignal or ran past its `timeoutMs` deadline. */
export class QueryCancelledError extends LibError {
  override name = "QueryCancelledError";
  readonly reason: "aborted" | "timeout";
  constructor(reason: "aborted" | "timeout", message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

/**
 * Base class of every error the warehouse raised for a statement (DB-API's `Error`). The driver's
 * own error is the `cause`. Catch this class, not a subclass: which subclass appears is the
 * driver's decision.
 */
export class WarehouseError extends Error {
  override name = "WarehouseError";
  /** The backend's own error code or SQLSTATE, when it gave one. */
  readonly code: string | undefined;
  /** The warehouse's id of the failed statement (backend A's query id), when it reported one. */
  readonly queryId: string | undefined;
  constructor(message: string, options: { cause?: unknown; code?: string; queryId?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.queryId = options.queryId;
  }
}

/** The statement is wrong: syntax, unknown name, bad argument. */
export class ProgrammingError extends WarehouseError {
  override name = "ProgrammingError";
}
/** The warehouse failed internally (a missing semantic view arrives here, see README "Errors"). */
export class InternalError extends WarehouseError {
  override name = "InternalError";
}
/** The warehouse could not run the statement: interrupted, out of resources, I/O, transaction state. */
export class OperationalError extends WarehouseError {
  override name = "OperationalError";
}
/** A value could not be converted or is out of range. */
export class DataError extends WarehouseError {
  override name = "DataError";
}
/** A constraint was violated. */
export class IntegrityError extends WarehouseError {
  override name = "IntegrityError";
}
/** The warehouse does not support what was asked. */
export class NotSupportedError extends WarehouseError {
  override name = "NotSupportedError";
}
