/**
 * `lib/dialects`: the per-warehouse layer for code that works across backends (tools, tests,
 * benchmarks): the DIALECTS record, the `Dialect` interface and the three query compilers.
 */
export { DIALECTS, BACKENDS, isBackend, compilerFor } from "./dialects.js";
export type { Dialect } from "./dialect.js";
export type { DialectAdapter } from "./dialect-adapter.js";
export type { DialectCodegen, CodegenSource } from "./dialect-codegen.js";
export type { DialectConfig } from "../config/dialect-config.js";
export { SemanticQueryCompiler } from "../query-compiler/semantic-query-compiler.js";
export { SnowflakeQueryCompiler } from "./snowflake/snowflake-query-compiler.js";
export { DatabricksQueryCompiler } from "./databricks/databricks-query-compiler.js";
export { DuckDBQueryCompiler } from "./duckdb/duckdb-query-compiler.js";
// The operation nodes the compilers read (what a custom compiler subclass is handed).
export type { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
export type { ConditionNode } from "../operation-node/condition-node.js";
export type { OrderingNode } from "../operation-node/ordering-node.js";
export type { FieldNode, FieldKind } from "../operation-node/field-node.js";
export type { FilterValue } from "../operation-node/filter-value.js";
