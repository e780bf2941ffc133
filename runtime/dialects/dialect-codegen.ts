/**
 * A dialect's part in `lib codegen` (README "Code generation"): how the CLI reaches the warehouse,
 * reads semantic-view metadata and base tables, and spells warehouse names on the TypeScript side.
 * Only the CLI reads it; the engine never does.
 */
import type { FixtureModel, FixtureReadOptions } from "./fixture/fixture-model.js";
import type { IntrospectionSource, Introspector } from "./introspect/metadata.js";

/** How `lib codegen` reaches the warehouse. */
export type CodegenSource =
  /** Reads `[connections.<backend name>]` from the TOML file, like an application. */
  | { readonly kind: "section" }
  /**
   * Opens a local database file given by `--database` or `<envPrefix>DATABASE` (no section);
   * `connection(path)` is the config-object input that opens it for reading only.
   */
  | {
      readonly kind: "database-file";
      readonly connection: (path: string) => Readonly<Record<string, unknown>>;
    };

export interface DialectCodegen {
  readonly source: CodegenSource;
  /** Reads semantic-view metadata over an open connection. */
  createIntrospector(source: IntrospectionSource): Introspector;
  /** Reads the views and their base tables as a DuckDB fixture model (`lib codegen --fixture`). */
  readFixture(
    source: IntrospectionSource,
    views: readonly string[],
    options: FixtureReadOptions,
  ): Promise<FixtureModel>;
  /** A warehouse name as the TypeScript side spells it (backend A: folded upper case → lower case). */
  portableName(name: string): string;
}
