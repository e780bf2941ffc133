/**
 * RFC 9457 problem details for the semantic router: every failure answers
 * `application/problem+json` with `type`, `title`, `status`, `detail`, `instance`, and for a bad
 * request an `errors` list naming each bad field (its request path and a JSON Pointer to it). A
 * warehouse that cannot answer is 503 with `Retry-After`; the error itself never reaches the client.
 */
import type { ServerResponse } from "node:http";
import { LibConnectionError, QueryCancelledError, WarehouseError } from "../errors.js";
import { EngineNotFoundError } from "../engine/registry.js";
import { PoolTimeoutError } from "../engine/pool-timeout-error.js";
import { InvalidRequestError, type RequestIssue, type RequestIssueCode } from "../request/invalid-request-error.js";

export const PROBLEM_JSON = "application/problem+json";

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly errors?: readonly (RequestIssue & { readonly pointer: string })[];
}

const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  500: "Internal Server Error",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Problem type URIs (`urn:lib:problem:<name>`); plain HTTP conditions use `about:blank`. */
export const PROBLEM_TYPES = Object.freeze({
  malformed: "urn:lib:problem:malformed-request",
  invalid: "urn:lib:problem:invalid-request",
  unknownView: "urn:lib:problem:unknown-view",
  forbidden: "urn:lib:problem:forbidden",
  tooLarge: "urn:lib:problem:request-too-large",
  unavailable: "urn:lib:problem:warehouse-unavailable",
  timeout: "urn:lib:problem:query-timeout",
});

const STATUS_OF: Partial<Record<RequestIssueCode, [number, string]>> = {
  malformed: [400, PROBLEM_TYPES.malformed],
  unsupported_media_type: [415, "about:blank"],
  unknown_view: [404, PROBLEM_TYPES.unknownView],
  unauthorized_scope: [403, PROBLEM_TYPES.forbidden],
  too_large: [413, PROBLEM_TYPES.tooLarge],
};

/** `where.and[0].value` → `/where/and/0/value` (RFC 6901, `~` and `/` escaped). */
export function jsonPointer(path: string): string {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  return parts.map((p) => `/${p.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

export function problem(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: "about:blank", title: TITLES[status] ?? "Error", status, detail, ...extra };
}

/** The problem for a request the core refused. */
export function requestProblem(error: InvalidRequestError): Problem {
  const [status, type] = STATUS_OF[error.code] ?? [422, PROBLEM_TYPES.invalid];
  const errors = error.errors.map((issue) => ({ ...issue, pointer: jsonPointer(issue.field) }));
  const detail =
    error.errors.length === 1
      ? `${error.errors[0]!.field}: ${error.errors[0]!.message}`
      : `${error.errors.length} problems in the request`;
  return problem(status, detail, { type, errors });
}

/** Whether `error` means the warehouse cannot answer now (503 with Retry-After). */
export function isUnavailable(error: unknown): boolean {
  return (
    error instanceof WarehouseError ||
    error instanceof LibConnectionError ||
    error instanceof PoolTimeoutError ||
    error instanceof EngineNotFoundError
  );
}

/** An error that is already an HTTP problem (406, ...). */
export class HttpProblem extends Error {
  override name = "HttpProblem";
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

/** The problem for any error a request ended with (the error's own text stays on the server). */
export function problemFor(error: unknown): Problem {
  if (error instanceof InvalidRequestError) return requestProblem(error);
  if (error instanceof HttpProblem) return error.problem;
  if (isUnavailable(error)) {
    return problem(503, "Data warehouse is unavailable", { type: PROBLEM_TYPES.unavailable });
  }
  if (error instanceof QueryCancelledError && error.reason === "timeout") {
    return problem(504, "The query ran past its time limit", { type: PROBLEM_TYPES.timeout });
  }
  return problem(500, "Internal server error");
}

/** Writes `body` as `application/problem+json` (with `Retry-After` on a 503). */
export function sendProblem(res: ServerResponse, body: Problem, instance: string, retryAfterSeconds: number): void {
  res.statusCode = body.status;
  res.setHeader("Content-Type", `${PROBLEM_JSON}; charset=utf-8`);
  res.setHeader("Cache-Control", "no-store");
  if (body.status === 503) res.setHeader("Retry-After", String(retryAfterSeconds));
  res.end(JSON.stringify({ ...body, instance }));
}
