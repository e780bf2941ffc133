/**
 * How failures become HTTP responses. SPEC's status rules: a warehouse error or `LibConnectionError`
 * is 503 with SPEC's constant `{"detail": ...}` body; anything else unhandled is 500. Every other error
 * body is RFC 9457 `application/problem+json` (`type`, `title`, `status`, `detail`): bad input 422,
 * unknown path 404, unsupported method 405 (with `Allow`). Each 503 and 500 writes one log line that
 * says what failed and what to check; the error itself is never echoed to the client.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { getEngine, LibConnectionError, WarehouseError, type Engine } from "lib";
import { DIALECTS } from "lib/dialects";
import { describeError, type Logger } from "./logger.js";

/** The constant 503 detail of the SPEC. */
export const WAREHOUSE_UNAVAILABLE = "Data warehouse is unavailable";
export const INTERNAL_ERROR = "Internal server error";
export const PROBLEM_JSON = "application/problem+json";
/** The methods every resource of the service supports. */
export const ALLOWED_METHODS = "GET, HEAD";

/** A request parameter failed validation; `detail` names the parameter. */
export class RequestValidationError extends Error {
  override name = "RequestValidationError";
  constructor(
    readonly parameter: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const TITLES: Readonly<Record<number, string>> = {
  404: "Not Found",
  405: "Method Not Allowed",
  422: "Unprocessable Content",
  500: "Internal Server Error",
};

/** Sends an RFC 9457 problem (`type` is `about:blank`: the status code says it all). */
export function sendProblem(res: Response, status: number, detail: string): void {
  res
    .status(status)
    .type(PROBLEM_JSON)
    .send(JSON.stringify({ type: "about:blank", title: TITLES[status] ?? "Error", status, detail }));
}

export function notFound(): RequestHandler {
  return (req, res) => {
    sendProblem(res, 404, `Not found: ${req.method} ${req.path}`);
  };
}

/** 405 with `Allow` for a method other than GET/HEAD on a resource that exists. */
export function methodNotAllowed(exists: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || !exists(req.path)) {
      next();
      return;
    }
    res.setHeader("Allow", ALLOWED_METHODS);
    sendProblem(res, 405, `${req.method} is not supported on ${req.path}; use ${ALLOWED_METHODS}`);
  };
}

/** What a 503 was about, in one line an operator can act on. */
export function explainUnavailable(error: WarehouseError | LibConnectionError, engine: Engine | undefined): string {
  const where = databaseOf(engine);
  if (error instanceof LibConnectionError) return `no connection to the warehouse${where}: ${describeError(error)}`;
  if (error.code === "semantic_not_found") {
    const view = /semantic view '([^']+)'/i.exec(error.message)?.[1] ?? "sales";
    return `semantic view '${view}' not found${where}: create it or point the service at the right database (${describeError(error)})`;
  }
  return `the warehouse rejected the statement${where}: ${describeError(error)}`;
}

function databaseOf(engine: Engine | undefined): string {
  try {
    const settings = (engine ?? getEngine("default")).settings;
    return DIALECTS[settings.type].adapter.databaseIsFile ? ` in ${settings.database}` : ` (${settings.type})`;
  } catch {
    return "";
  }
}

export function errorResponder(logger: Logger, engine?: Engine): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof RequestValidationError) {
      sendProblem(res, 422, error.detail);
      return;
    }
    // Base classes on purpose: which subclass the driver raises is its own decision.
    if (error instanceof WarehouseError || error instanceof LibConnectionError) {
      logger.error(`${req.method} ${req.path} -> 503: ${explainUnavailable(error, engine)}`);
      res.status(503).json({ detail: WAREHOUSE_UNAVAILABLE });
      return;
    }
    logger.error(
      `${req.method} ${req.path} -> 500: unexpected failure, a bug or a model that no longer matches the view`,
      error,
    );
    sendProblem(res, 500, INTERNAL_ERROR);
  };
}
