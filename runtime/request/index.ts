/**
 * `lib/request`: the framework-free request core behind `lib/express`'s `semanticRouter` and
 * `lib/mcp`: JSON requests validated against generated view classes, turned into typed-builder
 * queries with mandatory scope conditions, paged and streamed within limits.
 */
export {
  SemanticApi,
  createSemanticApi,
  type SemanticApiOptions,
  type ScopeHook,
  type ScopeResult,
  type ScopeCondition,
  type PrepareOptions,
  type PreparedQuery,
  type DeliveryMode,
} from "./semantic-api.js";
export {
  ViewRegistry,
  type ViewSource,
  type ViewClass,
  type ViewWithRow,
  type ViewEntry,
  type MemberInfo,
  type VariableInfo,
  type RowSchema,
} from "./view-registry.js";
export type { MemberType } from "./member-type.js";
export type { ViewDescription, MemberDescription, VariableDescription, ViewSummary } from "./describe-view.js";
export { InvalidRequestError, type RequestIssue, type RequestIssueCode } from "./invalid-request-error.js";
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from "./request-limits.js";
export {
  CONDITION_OPERATORS,
  type SemanticRequest,
  type WhereJson,
  type ComparisonJson,
  type ConditionOperator,
  type OrderByJson,
} from "./semantic-request.js";
export { parseRequestJson, ExactNumber } from "./request-json.js";
export {
  requestSchema,
  whereSchema,
  rowSchema,
  factsRowSchema,
  valueSchema,
  type JsonSchema,
} from "./request-schema.js";
export { RowBatches, collectRows, BATCH_ROWS } from "./result-batches.js";
export { rowJsonWriter } from "./row-json.js";
