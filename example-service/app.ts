/**
 * The Express 5 application of the example service, built by a factory so tests can start it on
 * an ephemeral port. Routes: `/` dashboard, `/explorer.html`, `/revenue`, `/api/...` (every generated
 * view through `semanticRouter`), `/openapi.json`, `/docs`.
 */
import { fileURLToPath } from "node:url";
import express, { type Express } from "express";
import swaggerUi from "swagger-ui-express";
import type { Engine } from "lib";
import { existsSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import { errorResponder, methodNotAllowed, notFound } from "./http-errors.js";
import { consoleLogger, type Logger } from "./logger.js";
import { buildOpenApiDocument } from "./openapi.js";
import { apiRouter, API_PATH } from "./api-route.js";
import { revenueHandler } from "./revenue-route.js";

export interface AppOptions {
  /** Engine to query; default: the engine registered as "default", resolved per request. */
  readonly engine?: Engine;
  readonly logger?: Logger;
}

const publicDir = fileURLToPath(new URL("./public/", import.meta.url));

// The dashboard loads nothing from elsewhere: the machine may be offline, and it keeps the page honest.
const DASHBOARD_CSP =
  "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The paths the service answers with GET: its routes, the docs and the dashboard's files. */
function isResource(path: string): boolean {
  if (path === "/" || path === "/revenue" || path === "/openapi.json" || path === "/docs" || path.startsWith("/docs/"))
    return true;
  const file = normalize(join(publicDir, path));
  return file.startsWith(publicDir) && existsSync(file) && statSync(file).isFile();
}

export function createApp(options: AppOptions = {}): Express {
  const logger = options.logger ?? consoleLogger;
  const api = apiRouter(options.engine, logger);
  const openApi = buildOpenApiDocument(api.openApiDocument({ basePath: API_PATH }));
  const app = express();
  app.disable("x-powered-by");
  // Express 5's default, made explicit: repeated parameters become arrays, no nested objects.
  app.set("query parser", "simple");

  // The semantic API answers its own methods (405s, problems) before the service's GET-only rule.
  app.use(API_PATH, api);
  app.use(methodNotAllowed(isResource));
  app.get("/revenue", revenueHandler(options.engine));
  app.get("/openapi.json", (_req, res) => {
    res.json(openApi);
  });
  const swaggerOptions = {
    customSiteTitle: "lib example service: API docs",
    // validatorUrl null: no badge request to an online validator.
    swaggerOptions: { validatorUrl: null, defaultModelsExpandDepth: 3, defaultModelExpandDepth: 3 },
  };
  app.use("/docs", swaggerUi.serveFiles(openApi, swaggerOptions), swaggerUi.setup(openApi, swaggerOptions));
  app.use(
    "/",
    (_req, res, next) => {
      res.setHeader("Content-Security-Policy", DASHBOARD_CSP);
      next();
    },
    express.static(publicDir, { index: "index.html", fallthrough: true }),
  );

  app.use(notFound());
  app.use(errorResponder(logger, options.engine));
  return app;
}
