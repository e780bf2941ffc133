/**
 * An error raised by the built-in semantic-view engine. The backend C driver maps it onto the
 * `WarehouseError` hierarchy like any DuckDB error: `not_found` becomes `InternalError` (as
 * README "Errors" says a missing view arrives), the others `ProgrammingError`.
 */
export type SemanticErrorKind = "parse" | "invalid" | "not_found" | "execution";

export class SemanticViewError extends Error {
  override name = "SemanticViewError";
  readonly kind: SemanticErrorKind;
  constructor(kind: SemanticErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }
}
