/**
 * `/api`: every view `lib codegen` generated (`generated/index.ts`), served by `lib/express`'s
 * `semanticRouter`: `GET /api/views`, `GET /api/views/:view`, `POST|GET /api/views/:view/query`
 * (JSON, NDJSON or Arrow by `Accept`), `/api/views/:view/sql`, `/api/openapi.json`. The dashboard's
 * explorer is its client.
 */
import type { Engine } from "lib";
import { semanticRouter, type SemanticRouter } from "lib/express";
import * as views from "../generated/index.js";
import { describeError, type Logger } from "./logger.js";

export const API_PATH = "/api";

export function apiRouter(engine: Engine | undefined, logger: Logger): SemanticRouter {
  return semanticRouter({
    views,
    engine,
    onError: (error, req) => logger.error(`${req.method} ${req.originalUrl ?? req.url} -> ${describeError(error)}`),
  });
}
