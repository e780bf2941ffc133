/**
 * `lib/express`: serving query results over HTTP. Lossless JSON responses for Express (or any Node
 * `ServerResponse`) and the JSON Schema of what they write, for OpenAPI documents. Typed
 * structurally: importing this entry does not load express.
 */
export {
  sendJson,
  sendRows,
  jsonResponse,
  type JsonResponseTarget,
  type JsonResponseOptions,
  type RowsSource,
} from "./express-json.js";
export { jsonReplacerWritesNumbers } from "../values/json.js";
export { toJsonSchema } from "../mapping/json-schema.js";
export {
  semanticRouter,
  type SemanticRouter,
  type SemanticRouterOptions,
  type RouterRequest,
  type Next,
} from "./semantic-router.js";
export { openApiDocument, type OpenApiOptions } from "./openapi-document.js";
export { MEDIA_TYPES, negotiateFormat, type AnswerFormat } from "./content-negotiation.js";
export { PROBLEM_TYPES, type Problem } from "./problem-details.js";
export { TRUNCATED_TRAILER } from "./query-answer.js";
