/**
 * A request that cannot become a query: every problem found is listed, each naming the field it is
 * about (a path into the request: `metrics[1]`, `where.and[0].value`) and, for a near-miss name,
 * the name it was probably meant to be. Nothing was sent to the warehouse when this is thrown.
 */
import { ValidationError } from "../errors.js";

/**
 * What went wrong, so a front door can pick a status: `unknown_view` (404), `too_large` (413),
 * `malformed` (400: not JSON, not an object), `unsupported_media_type` (415), `unauthorized_scope`
 * (the scope hook refused: 403),
 * anything else 422.
 */
export type RequestIssueCode =
  | "unknown_view"
  | "unknown_member"
  | "wrong_kind"
  | "invalid_value"
  | "unknown_parameter"
  | "missing"
  | "limit_exceeded"
  | "too_large"
  | "malformed"
  | "unsupported_media_type"
  | "unauthorized_scope"
  | "invalid_query";

export interface RequestIssue {
  /** Where in the request: `view`, `metrics[0]`, `where.or[1].value`, `limit`, `body`. */
  readonly field: string;
  readonly code: RequestIssueCode;
  readonly message: string;
  /** The closest valid name for a near miss (`revenue` for `revenu`). */
  readonly suggestion?: string | undefined;
  /** For `limit_exceeded` and `too_large`: the name of the limit (`maxMembers`, `maxRows`, ...) and its value. */
  readonly limit?: { readonly name: string; readonly value: number } | undefined;
}

export class InvalidRequestError extends ValidationError {
  override name = "InvalidRequestError";
  readonly errors: readonly RequestIssue[];

  constructor(errors: readonly RequestIssue[], options: { cause?: unknown } = {}) {
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    super(`Invalid request: ${first === undefined ? "no details" : `${first.field}: ${first.message}`}${more}`, {
      source: "request",
      ...(first === undefined ? {} : { field: first.field }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.errors = Object.freeze(
      errors.map((e) => Object.freeze({ ...e, ...(e.limit ? { limit: Object.freeze({ ...e.limit }) } : {}) })),
    );
  }

  /** The issue code that decides the response status (the first issue's). */
  get code(): RequestIssueCode {
    return this.errors[0]?.code ?? "invalid_query";
  }
}

/** Collects issues while a request is read; `throwIfAny()` raises them together. */
export class IssueList {
  readonly issues: RequestIssue[] = [];

  add(field: string, code: RequestIssueCode, message: string, suggestion?: string): void {
    this.issues.push(suggestion === undefined ? { field, code, message } : { field, code, message, suggestion });
  }

  /**
   * A bound exceeded: `message` says what was asked and the bound; the limit's name is appended
   * (`(limit maxInList)`), so a client knows which server setting refused it, and carried in `limit`;
   * `hint` (what to do instead) follows.
   */
  overLimit(field: string, limit: { readonly name: string; readonly value: number }, message: string, hint = ""): void {
    this.issues.push({ field, code: "limit_exceeded", message: `${message} (limit ${limit.name})${hint}`, limit });
  }

  get empty(): boolean {
    return this.issues.length === 0;
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw new InvalidRequestError(this.issues);
  }
}
