/**
 * `lib`: typed semantic-layer queries over Snowflake semantic views (backend A), Databricks metric
 * views (backend B) and DuckDB (backend C). This entry exports the API contract, plus the types
 * needed to name its arguments and results; the rest is in the subpath entries `lib/express`,
 * `lib/config` and `lib/dialects` (README "API tour"), or internal.
 */
export * from "./errors.js";
export { Decimal, type DecimalInput, type DecimalDivideOptions, type RoundingMode } from "./values/decimal.js"; // a plain class; its schema helper is DecimalType()
export type { ColumnInfo, ValueKind, QueryResult, ResultStream, ServedFrom } from "./driver/query-result.js";
export type { PooledConnection, Row } from "./engine/pooled-connection.js";
export { BackendAConfig, type BackendAConfigInput } from "./dialects/snowflake/snowflake-config.js";
export { BackendBConfig, type BackendBConfigInput } from "./dialects/databricks/databricks-config.js";
export { BackendCConfig, type BackendCConfigInput } from "./dialects/duckdb/duckdb-config.js";
export type { ConfigObjectOptions } from "./config/backend-config.js";
export type { Environment } from "./config/config-context.js";
// Declarations, conditions and the query builder.
export {
  SemanticView,
  type SemanticViewClass,
  type SemanticViewStatics,
  type BoundFields,
  type FieldSpecs,
} from "./view/semantic-view.js";
export {
  Metric,
  Dimension,
  Fact,
  type FieldSpec,
  type MemberOptions,
  type SqlScalar,
  type NumericValue,
} from "./view/field-spec.js";
export {
  Variable,
  type VariableOptions,
  type VariableSpec,
  type VariableValues,
  type ViewVariable,
  type NoVariables,
} from "./view/variable.js";
export type {
  Field,
  AnyField,
  MetricField,
  DimensionField,
  FactField,
  FieldValueType,
  ValueInput,
} from "./view/field.js";
export { and, or, not, type Condition, type RowCondition } from "./query/condition.js";
export type { Ordering, OrderingOptions } from "./query/ordering.js";
export type { DateRangeOptions, DateUnit } from "./operation-node/date-range-node.js";
export {
  SemanticQuery,
  type RowOf,
  type CompileOptions,
  type ExecuteOptions,
  type QueryCursor,
} from "./query/semantic-query.js";
export type { CompiledQuery } from "./query-compiler/compiled-query.js";
export type { QueryEngine, EngineRef } from "./query-executor/query-engine.js";
export type { QueryCacheOption } from "./query-executor/cache-options.js";
// The result cache's scope attributes (withQueryScope() is in lib/cache) and the engine's cache.
export type { QueryScope, QueryScopeValue } from "./result-cache/query-scope.js";
export type { ResultCache, ResultCacheStats } from "./result-cache/result-cache.js";
// Cursor, model mapping and lossless JSON.
export { Cursor } from "./cursor/cursor.js";
export type { ValidateMode, IntoOptions } from "./mapping/validate-mode.js";
export {
  DecimalType,
  BigIntType,
  DateType,
  LibType,
  type TDecimal,
  type TDate,
  type TBigIntValue,
  type LibTypeOptions,
  type DateTypeOptions,
} from "./mapping/schema-types.js";
export { toJson, jsonReplacer } from "./values/json.js";
// Engines, pools and the registry.
export { createEngine, createAsyncEngine, type CreateEngineOptions } from "./engine/create-engine.js";
export { Engine } from "./engine/engine.js";
export { register, unregister, getEngine, EngineNotFoundError } from "./engine/registry.js";
export { PoolTimeoutError } from "./engine/pool-timeout-error.js";
export type { ConnectListener } from "./engine/connection-pool.js";
export type { ConnectConnection } from "./engine/pooled-connection.js";
// Logging (the engine `log` option) and node:diagnostics_channel tracing.
export type {
  LogEvent,
  EngineLogger,
  QueryLogEvent,
  QueryErrorLogEvent,
  ConnectionLogEvent,
  PoolWaitLogEvent,
} from "./observability/log-event.js";
export {
  QUERY_CHANNEL,
  CONNECT_CHANNEL,
  POOL_WAIT_CHANNEL,
  type QueryTraceContext,
  type BackendTraceContext,
} from "./observability/channels.js";
export { MissingPackageError } from "./packages/peer-package.js";
