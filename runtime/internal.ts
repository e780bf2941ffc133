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
export type { FixtureModel, FixtureTable, SampleRows } from "./dialects/fixture/fixture-model.js";
export { FixtureTableTooLarge } from "./dialects/fixture/fixture-model.js";
export type { QueryDescriptor, RecordedQuery } from "./testing/recorded-query.js";
export { ident } from "./dialects/fixture/ddl-text.js";
// The --fixture module is DuckDB SQL whatever the source warehouse: its literals are DuckDB's.
export { duckdbLiteral } from "./dialects/duckdb/duckdb-literals.js";
export { engineFromSettings } from "./engine/create-engine.js";
export { KIND_TYPINGS } from "./mapping/kind-typings.js";
export { fieldNameProblem, MAX_NAME_LENGTH } from "./view/names.js";
export { closestFieldName } from "./text/suggest.js";

type RecordingModules = [
  typeof import("./testing/recorded-query.js"),
  typeof import("./testing/tagged-values.js"),
  typeof import("./testing/verify-fixture.js"),
];

/**
 * What `--queries`, `--record` and `--verify` use from `lib/testing`'s modules, loaded when first
 * asked for: they bring the query builder and TypeBox, which the rest of `lib codegen` never loads.
 * Loaded as `loadArrow()` loads Arrow, so the caller's copy of `Decimal` is the genuine one for them:
 * `import()` in the published ES modules, `require` where tsx runs the code as CommonJS (tests).
 */
export async function loadFixtureRecording() {
  const [descriptors, values, verify]: RecordingModules =
    typeof require === "function"
      ? [
          require("./testing/recorded-query.js"),
          require("./testing/tagged-values.js"),
          require("./testing/verify-fixture.js"),
        ]
      : await Promise.all([
          import("./testing/recorded-query.js"),
          import("./testing/tagged-values.js"),
          import("./testing/verify-fixture.js"),
        ]);
  return {
    parseQueryDescriptors: descriptors.parseQueryDescriptors,
    describeQuery: descriptors.describeQuery,
    descriptorQuery: descriptors.descriptorQuery,
    selectedMembers: descriptors.selectedMembers,
    encodeValue: values.encodeValue,
    verifyFixture: verify.verifyFixture,
    formatFixtureReport: verify.formatFixtureReport,
  };
}
