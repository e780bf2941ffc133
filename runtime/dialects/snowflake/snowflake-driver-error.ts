import { redactText } from "../../driver/secret-redaction.js";

/**
 * A copy of a snowflake-sdk error with only what is safe to keep: name, message, code, SQLSTATE and
 * query id. The sdk's own error objects may hold the HTTP exchange (request headers with the session
 * token, the login body with the password), so they are never kept as a `cause`; secrets the
 * driver knows are also scrubbed from the message.
 */
export class SnowflakeDriverError extends Error {
  override name = "SnowflakeDriverError";
  /** The sdk's error class name, e.g. `OperationFailedError`, `NetworkError`. */
  readonly sdkName: string | undefined;
  readonly code: string | undefined;
  readonly sqlState: string | undefined;
  readonly queryId: string | undefined;

  constructor(message: string, fields: { sdkName?: string; code?: string; sqlState?: string; queryId?: string } = {}) {
    super(message);
    this.sdkName = fields.sdkName;
    this.code = fields.code;
    this.sqlState = fields.sqlState;
    this.queryId = fields.queryId;
  }

  /** Copies the safe fields of an sdk error, redacting every given secret form (secretForms) from its message. */
  static from(error: unknown, secrets: readonly string[] = []): SnowflakeDriverError {
    if (error instanceof SnowflakeDriverError) return error;
    const e = (typeof error === "object" && error !== null ? error : {}) as {
      name?: unknown;
      message?: unknown;
      code?: unknown;
      sqlState?: unknown;
      data?: { queryId?: unknown } | null;
    };
    let message = typeof e.message === "string" && e.message !== "" ? e.message : String(error);
    message = redactText(message, secrets);
    const text = (value: unknown) =>
      value === undefined || value === null || value === "" ? undefined : String(value);
    const fields: { sdkName?: string; code?: string; sqlState?: string; queryId?: string } = {};
    const sdkName = text(e.name);
    const code = text(e.code);
    const sqlState = text(e.sqlState);
    const queryId = text(e.data?.queryId);
    if (sdkName !== undefined) fields.sdkName = sdkName;
    if (code !== undefined) fields.code = code;
    if (sqlState !== undefined) fields.sqlState = sqlState;
    if (queryId !== undefined) fields.queryId = queryId;
    return new SnowflakeDriverError(message, fields);
  }
}
