/**
 * The library-internal entry: what `lib codegen` (`codegen/`) reads from the runtime beyond the
 * public entries (`lib`, `lib/config`, `lib/dialects`). It is not in package.json `exports`, so
 * applications never import it and nothing here is public API; `test/architecture/` checks that
 * codegen reaches the runtime through these entries only. The CLI imports values from here and from
 * `lib/config` and `lib/dialects` only: the `lib` entry loads the whole library (types are free).
 */
export { ValidationError } from "./errors.js";
export { dialectOf, labelInSentence, listBackends } from "./dialects/dialects.js";
export { resolveConfigObject } from "./dialects/resolve-settings.js";
export type {
  IntrospectionSource,
  MemberMetadata,
  VariableMetadata,
  ViewMetadata,
  ViewSummary,
} from "./dialects/introspect/metadata.js";
export type { FixtureModel, FixtureTable } from "./dialects/fixture/fixture-model.js";
export { ident } from "./dialects/fixture/ddl-text.js";
// The --fixture module is DuckDB SQL whatever the source warehouse: its literals are DuckDB's.
export { duckdbLiteral } from "./dialects/duckdb/duckdb-query-compiler.js";
export { engineFromSettings } from "./engine/create-engine.js";
export { KIND_TYPINGS } from "./mapping/kind-typings.js";
export { fieldNameProblem, MAX_NAME_LENGTH } from "./view/names.js";
export { closestFieldName } from "./text/suggest.js";
