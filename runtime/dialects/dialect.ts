/**
 * Everything the library knows about one warehouse, in one object (Kysely's `Dialect` in spirit):
 * its configuration rules, its driver, its query compiler, its introspector for `lib codegen`, and
 * the capabilities the engine and codegen ask instead of checking which backend they have.
 *
 * Vocabulary: a *backend* is the public name a connection is configured with (`type = "backend_a"`,
 * the `BackendType` keys of DIALECTS, also the `dialect` option of `toSql()`/`compile()`); its
 * *dialect* is the `Dialect` object `DIALECTS[backend]`. Each dialect lives in one folder,
 * `runtime/dialects/<warehouse>/`, and files there are named by warehouse.
 */
import type { EnvFallback, FieldSpec } from "../config/fields.js";
import type { BackendRules } from "../config/resolved-values.js";
import type { CommonSettings } from "../config/types.js";
import type { Driver } from "../driver/database-connection.js";
import type { SemanticQueryCompiler } from "../query-compiler/semantic-query-compiler.js";
import type { FixtureModel, FixtureReadOptions } from "./fixture/fixture-model.js";
import type { IntrospectionSource, Introspector } from "./introspect/metadata.js";
import type { TypeTable } from "./type-table.js";

/** How a dialect's connections are configured: one `[connections.<name>]` section or config object. */
export interface DialectConfig extends EnvFallback {
  /** Every field a section accepts, common fields first (`withCommonFields`). */
  readonly fields: readonly FieldSpec[];
  /** The dialect's own fields (the README reference lists the common ones once). */
  readonly ownFields: readonly FieldSpec[];
  /** Env fallbacks to skip, dependent defaults, cross-field validation. */
  readonly rules: BackendRules;
  /** The config-object class (`BackendAConfig`), named in messages. */
  readonly className: string;
  /** Paragraph the README configuration reference prints after the dialect's table. */
  readonly referenceNotes?: string;
}

/** How `lib codegen` reaches the warehouse (README "Code generation"). */
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

export interface Dialect<
  Name extends string = string,
  Settings extends CommonSettings = CommonSettings,
  DriverOptions extends object = object,
> {
  /** The public backend name (`backend_a`); its key in DIALECTS. */
  readonly name: Name;
  /** `Backend A`: how messages and the README refer to it. */
  readonly label: string;
  /** The warehouse product (`Snowflake`). */
  readonly warehouse: string;
  readonly config: DialectConfig;
  /** A driver for these settings; `options` are library-internal (tests inject DuckDB's semantic layer). */
  createDriver(settings: Settings, options?: DriverOptions): Driver;
  /** A fresh compiler (a compiler holds per-compilation state, so none is shared). */
  createQueryCompiler(): SemanticQueryCompiler;
  /** Reads semantic-view metadata for `lib codegen` over an open connection. */
  createIntrospector(source: IntrospectionSource): Introspector;
  /**
   * True when every physical connection is a database of its own (in-memory DuckDB): an overflow
   * connection would answer from an empty database, so the engine never opens one.
   */
  everyConnectionIsPrivate(settings: Settings): boolean;
  /** Called once per engine created, e.g. to warn about settings the driver cannot honour. */
  checkEngineSettings?(settings: Settings): void;
  /** The `database` setting names a local database file (messages show it instead of the backend). */
  readonly databaseIsFile: boolean;
  /** A warehouse name as the TypeScript side spells it (backend A: folded upper case → lower case). */
  portableName(name: string): string;
  /** Reads the views and their base tables as a DuckDB fixture model (`lib codegen --fixture`). */
  readFixture(
    source: IntrospectionSource,
    views: readonly string[],
    options: FixtureReadOptions,
  ): Promise<FixtureModel>;
  readonly codegenSource: CodegenSource;
  /**
   * The dialect's type table (`<warehouse>-types.ts`): warehouse type → how its values arrive. Its
   * driver classifies result columns with it and `lib codegen` types introspected columns with it.
   */
  readonly types: TypeTable;
}

/** The settings type a dialect's driver reads. */
export type SettingsOf<D> = D extends Dialect<string, infer S, infer _O> ? S : never;

/** The library-internal driver options a dialect accepts. */
export type DriverOptionsOf<D> = D extends Dialect<string, infer _S, infer O> ? O : never;
