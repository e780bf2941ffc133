/**
 * How failures become HTTP responses: bad input 422, warehouse down or rejecting the statement 503,
 * anything else 500 with a generic body (the error is logged, never echoed to the client).
 */
import type { ErrorRequestHandler, RequestHandler } from "express";
import { LibConnectionError, WarehouseError } from "lib";
import type { Logger } from "./logger.js";

/** The constant 503 detail of SPEC.md. */
export const WAREHOUSE_UNAVAILABLE = "Data warehouse is unavailable";
export const INTERNAL_ERROR = "Internal server error";

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

export function notFound(): RequestHandler {
  return (req, res) => {
    res.status(404).json({ detail: `Not found: ${req.method} ${req.path}` });
  };
}

export function errorResponder(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof RequestValidationError) {
      res.status(422).json({ detail: error.detail });
      return;
    }
    // Base classes on purpose: which subclass the driver raises is its own decision.
    if (error instanceof WarehouseError || error instanceof LibConnectionError) {
      logger.error(`${req.method} ${req.path} -> 503`, error);
      res.status(503).json({ detail: WAREHOUSE_UNAVAILABLE });
      return;
    }
    logger.error(`${req.method} ${req.path} -> 500`, error);
    res.status(500).json({ detail: INTERNAL_ERROR });
  };
}
