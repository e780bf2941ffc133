export { rewriteSemanticViewCalls, mentionsSemanticView, type SemanticViewCatalog } from "./rewrite.js";
export { parseSemanticViewArguments, type SemanticViewCall } from "./call-arguments.js";
export {
  typedSemanticQuery,
  outputType,
  clearSemanticQueryCache,
  semanticQueryCacheStats,
  type TypedSemanticQuery,
} from "./typed-query.js";
