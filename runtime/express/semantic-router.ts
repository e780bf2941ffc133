/**
 * `semanticRouter(options)`: every view of a registry over HTTP, as Express middleware (any
 * `(req, res, next)` host works: Express 4/5, or `http.createServer`):
 *
 * | route | what |
 * |---|---|
 * | `GET /views` | the views, with member counts |
 * | `GET /views/:view` | its members: kind, value type, description |
 * | `POST /views/:view/query`, `GET /views/:view/query?...` | rows as JSON, NDJSON or Arrow (by `Accept`) |
 * | `POST\|GET /views/:view/sql` | the compiled SQL for each dialect (no warehouse involved) |
 * | `GET /openapi.json`, `GET /views/:view/openapi.json` | OpenAPI 3.1 |
 *
 * Errors are RFC 9457 problems (`problem-details.ts`). Other paths fall through to `next()`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { BACKENDS } from "../dialects/dialects.js";
import { SemanticApi, type SemanticApiOptions } from "../request/semantic-api.js";
import type { JsonSchema } from "../request/request-schema.js";
import { toJson } from "../values/json.js";
import { MEDIA_TYPES, negotiateFormat } from "./content-negotiation.js";
import { readJsonBody } from "./http-request-body.js";
import { openApiDocument, type OpenApiOptions } from "./openapi-document.js";
import { HttpProblem, isUnavailable, problem, problemFor, sendProblem, type Problem } from "./problem-details.js";
import { sendAnswer } from "./query-answer.js";
import { requestFromQueryString } from "./query-string-request.js";

/** The request as the router sees it: Node's, plus what Express adds when present. */
export type RouterRequest = IncomingMessage & {
  readonly originalUrl?: string;
  readonly baseUrl?: string;
  body?: unknown;
};

export interface SemanticRouterOptions<Req extends RouterRequest = RouterRequest> extends SemanticApiOptions<Req> {
  /** `Retry-After` seconds on a 503. Default 5. */
  readonly retryAfterSeconds?: number;
  /** Deadline per query in milliseconds (504 past it). Default: none. */
  readonly timeoutMs?: number;
  /** Serve `/views/:view/sql` (the compiled SQL per dialect). Default true. */
  readonly compiledSql?: boolean;
  readonly openApi?: OpenApiOptions;
  /** Called with every error answered 5xx (for logging); the client sees only the problem. */
  readonly onError?: (error: unknown, req: Req) => void;
}

export type Next = (error?: unknown) => void;

export interface SemanticRouter<Req extends RouterRequest = RouterRequest> {
  (req: Req, res: ServerResponse, next?: Next): void;
  /** The request core it serves (shared with other front doors, e.g. `lib/mcp`). */
  readonly api: SemanticApi<Req>;
  /** The OpenAPI 3.1 document of every view (or of one), with paths under `basePath`. */
  openApiDocument(options?: OpenApiOptions, view?: string): JsonSchema;
}

type Route =
  | { readonly name: "list" | "openapi" }
  | { readonly name: "describe" | "query" | "sql" | "view-openapi"; readonly view: string };

const ALLOWED: Readonly<Record<Route["name"], readonly string[]>> = {
  list: ["GET", "HEAD"],
  openapi: ["GET", "HEAD"],
  describe: ["GET", "HEAD"],
  "view-openapi": ["GET", "HEAD"],
  query: ["GET", "POST"],
  sql: ["GET", "POST"],
};

function route(pathname: string): Route | undefined {
  const parts = pathname.split("/").filter((p) => p !== "");
  if (parts.length === 1 && parts[0] === "openapi.json") return { name: "openapi" };
  if (parts[0] !== "views") return undefined;
  if (parts.length === 1) return { name: "list" };
  let view: string;
  try {
    view = decodeURIComponent(parts[1]!);
  } catch {
    return undefined;
  }
  if (parts.length === 2) return { name: "describe", view };
  if (parts.length !== 3) return undefined;
  const sub = { query: "query", sql: "sql", "openapi.json": "view-openapi" }[parts[2]!] as Route["name"] | undefined;
  return sub === undefined ? undefined : ({ name: sub, view } as Route);
}

function sendJsonBody(res: ServerResponse, body: unknown, head: boolean): void {
  const text = toJson(body);
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(head ? undefined : text);
}

/** The query string of a request (the GET form), for a `Link: rel="next"` header. */
function queryString(request: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (key === "view" || value === undefined) continue;
    if (key === "where" || key === "variables") search.set(key, toJson(value));
    else if (key === "orderBy") {
      const items = (value as unknown[]).map((o) =>
        typeof o === "string"
          ? o
          : [
              (o as { field: string }).field,
              (o as { direction?: string }).direction ?? "asc",
              (o as { nulls?: string }).nulls,
            ]
              .filter(Boolean)
              .join(":"),
      );
      search.set(key, items.join(","));
    } else search.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  return search.toString();
}

export function semanticRouter<Req extends RouterRequest = RouterRequest>(
  options: SemanticRouterOptions<Req>,
): SemanticRouter<Req> {
  const api = new SemanticApi<Req>(options);
  const retryAfter = options.retryAfterSeconds ?? 5;
  const compiledSql = options.compiledSql ?? true;
  const documentFor = (openApi: OpenApiOptions = options.openApi ?? {}, view?: string): JsonSchema => {
    const entries = view === undefined ? api.registry.entries : [api.registry.get(view)!];
    return openApiDocument(api as SemanticApi<never>, openApi, entries);
  };

  const fail = (req: Req, res: ServerResponse, error: unknown): void => {
    const body: Problem = problemFor(error);
    if (body.status >= 500 || isUnavailable(error)) options.onError?.(error, req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, body, req.originalUrl ?? req.url ?? "", retryAfter);
  };

  const handle = async (req: Req, res: ServerResponse, found: Route, url: URL): Promise<void> => {
    const head = req.method === "HEAD";
    switch (found.name) {
      case "list":
        return sendJsonBody(res, { views: api.listViews() }, head);
      case "openapi":
        return sendJsonBody(res, documentFor({ basePath: req.baseUrl ?? "", ...options.openApi }), head);
      case "describe":
        return sendJsonBody(res, api.describeView(found.view), head);
      case "view-openapi":
        api.describeView(found.view); // 404 with a suggestion for an unknown view
        return sendJsonBody(res, documentFor({ basePath: req.baseUrl ?? "", ...options.openApi }, found.view), head);
      default:
        break;
    }
    const body =
      req.method === "POST"
        ? await readJsonBody(req, api.limits.maxBodyBytes)
        : requestFromQueryString(url.searchParams);
    if (found.name === "sql") {
      const prepared = await api.prepare(body, { context: req, view: found.view });
      const dialects: Record<string, unknown> = {};
      for (const backend of BACKENDS) {
        try {
          dialects[backend] = prepared.compile(backend);
        } catch (error) {
          dialects[backend] = { error: error instanceof Error ? error.message : String(error) };
        }
      }
      return sendJsonBody(res, { backend: prepared.backend, dialects }, false);
    }
    const format = negotiateFormat(req.headers.accept);
    if (format === undefined) {
      throw new HttpProblem(problem(406, `Accept one of ${Object.values(MEDIA_TYPES).join(", ")}`));
    }
    const prepared = await api.prepare(body, {
      context: req,
      view: found.view,
      mode: format === "json" ? "page" : "stream",
    });
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new Error("the client disconnected"));
    };
    res.on("close", onClose);
    try {
      const base = (req.originalUrl ?? req.url ?? "").split("?")[0];
      await sendAnswer(res, prepared, {
        format,
        signal: controller.signal,
        timeoutMs: options.timeoutMs,
        nextLink: req.method === "GET" ? (next) => `${base}?${queryString(next)}` : undefined,
      });
    } finally {
      res.off("close", onClose);
    }
  };

  const router = (req: Req, res: ServerResponse, next?: Next): void => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const found = route(url.pathname);
    if (found === undefined) {
      if (next !== undefined) next();
      else sendProblem(res, problem(404, `Not found: ${url.pathname}`), req.url ?? "", retryAfter);
      return;
    }
    if (!ALLOWED[found.name].includes(req.method ?? "GET") || (found.name === "sql" && !compiledSql)) {
      if (found.name === "sql" && !compiledSql) {
        sendProblem(res, problem(404, `Not found: ${url.pathname}`), req.originalUrl ?? req.url ?? "", retryAfter);
        return;
      }
      res.setHeader("Allow", ALLOWED[found.name].join(", "));
      sendProblem(
        res,
        problem(405, `${req.method} is not supported here; use ${ALLOWED[found.name].join(" or ")}`),
        req.originalUrl ?? req.url ?? "",
        retryAfter,
      );
      return;
    }
    handle(req, res, found, url).catch((error: unknown) => fail(req, res, error));
  };
  return Object.assign(router, { api, openApiDocument: documentFor });
}
