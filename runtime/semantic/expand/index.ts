export { expandSemanticQuery, type ExpandedQuery, type SemanticQueryRequest } from "./expand.js";
