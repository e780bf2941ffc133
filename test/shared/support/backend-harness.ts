/**
 * What the shared behaviour suite needs from a backend: an engine over the one sales fixture,
 * reached through the backend's real driver, and a look at what the warehouse received.
 */
import type { Engine } from "lib";

export interface ReceivedStatement {
  readonly sql: string;
  /** The bound parameter values as the warehouse received them (text). */
  readonly parameters: readonly (string | undefined)[];
}

export interface BackendHarness {
  /** Shown in the suite's title, e.g. "backend A (snowflake-sdk on the Snowflake stand-in)". */
  readonly title: string;
  /** Starts the warehouse seeded with `test/support/sales-fixture.ts`; an engine with one pooled connection. */
  start(): Promise<Engine>;
  /** Disposes the engine and stops the warehouse. */
  stop(): Promise<void>;
  /**
   * What the backend documents for facts (README "Backends A and B"): `alone` is a facts-only query,
   * `withDimensions` facts with dimensions. `rows`: one row per source row (DuckDB's semantic_views);
   * `refused`: a ValidationError before anything is sent (Snowflake groups facts with dimensions and its
   * 2026_07 bundle rejects them; Databricks metric views have no facts).
   */
  readonly facts: { readonly alone: "rows" | "refused"; readonly withDimensions: "rows" | "refused" };
  /**
   * The last statement the warehouse received, on backends that bind values as parameters (A, B).
   * Undefined on backend C, which writes values into `where_clause` as escaped literals.
   */
  readonly lastStatement: (() => ReceivedStatement) | undefined;
}
