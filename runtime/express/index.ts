/**
 * `lib/express`: serving query results over HTTP. Lossless JSON responses for Express (or any Node
 * `ServerResponse`) and the JSON Schema of what they write, for OpenAPI documents. Typed
 * structurally: importing this entry does not load express.
 */
export { sendJson, jsonResponse, type JsonResponseTarget, type JsonResponseOptions } from "./express-json.js";
export { jsonReplacerWritesNumbers } from "../values/json.js";
export { toJsonSchema } from "../mapping/json-schema.js";
