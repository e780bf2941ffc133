/** One semantic-query compiler per backend (Kysely style: a dialect folder each). */
import type { Backend } from "../query/backend.js";
import type { SemanticQueryCompiler } from "../query/compiler/semantic-query-compiler.js";
import { DatabricksQueryCompiler } from "./databricks/databricks-query-compiler.js";
import { DuckDBQueryCompiler } from "./duckdb/duckdb-query-compiler.js";
import { SnowflakeQueryCompiler } from "./snowflake/snowflake-query-compiler.js";

const FACTORIES: Record<Backend, () => SemanticQueryCompiler> = {
  backend_a: () => new SnowflakeQueryCompiler(),
  backend_b: () => new DatabricksQueryCompiler(),
  backend_c: () => new DuckDBQueryCompiler(),
};

/** A fresh compiler for `backend` (a compiler holds per-compilation state, so none is shared). */
export function compilerFor(backend: Backend): SemanticQueryCompiler {
  const factory = FACTORIES[backend];
  if (factory === undefined) throw new RangeError(`Unknown backend ${JSON.stringify(backend)}`);
  return factory();
}
