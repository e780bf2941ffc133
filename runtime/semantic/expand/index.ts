export { expandSemanticQuery, type ExpandedQuery, type SemanticQueryRequest } from "./expand.js";
export { routeToMaterialization, type RoutedQuery } from "./materialization.js";
