/**
 * `lib/testing`: test support for suites that run the production model offline: an in-memory
 * backend C engine with a `lib codegen --fixture` module installed on every new connection, and
 * `verifyFixture()`, which replays the warehouse answers recorded in that module. No test framework
 * is imported; it works the same from mocha, node:test, vitest and jest.
 */
export {
  createFixtureEngine,
  withFixtureEngine,
  useFixtureEngine,
  type FixtureModule,
  type FixtureSource,
  type FixtureUntranslated,
  type FixtureRecordedQuery,
  type FixtureEngineOptions,
  type TestHooks,
} from "./fixture-engine.js";
export { verifyFixture, formatFixtureReport, type FixtureReport, type QueryVerdict } from "./verify-fixture.js";
export type { RowDifference } from "./compare-rows.js";
export {
  QueryDescriptorSchema,
  parseQueryDescriptors,
  type QueryDescriptor,
  type RecordedQuery,
} from "./recorded-query.js";
export type { TaggedValue } from "./tagged-values.js";
