/**
 * Everything the library knows about one warehouse, in one object (Kysely's `Dialect`): its
 * configuration rules, its driver, its query compiler and type table, its capabilities (`adapter`,
 * what the engine asks instead of checking which backend it has) and its `codegen` part (what only
 * `lib codegen` needs).
 *
 * Vocabulary: a *backend* is the public name a connection is configured with (`type = "backend_a"`,
 * the `BackendType` keys of DIALECTS, also the `dialect` option of `toSql()`/`compile()`); its
 * *dialect* is the `Dialect` object `DIALECTS[backend]`. Each dialect lives in one folder,
 * `runtime/dialects/<warehouse>/`, and files there are named by warehouse.
 */
import type { DialectConfig } from "../config/dialect-config.js";
import type { CommonSettings } from "./common-settings.js";
import type { Driver } from "../driver/driver.js";
import type { SemanticQueryCompiler } from "../query-compiler/semantic-query-compiler.js";
import type { DialectAdapter } from "./dialect-adapter.js";
import type { DialectCodegen } from "./dialect-codegen.js";
import type { TypeTable } from "./type-table.js";

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
  /** A new compiler. It holds the state of the compile it runs, so one compile at a time; Kysely resets it at each compile, so it may be reused after one returns. */
  createQueryCompiler(): SemanticQueryCompiler;
  /** Capabilities the engine and messages ask (Kysely's `DialectAdapter`). */
  readonly adapter: DialectAdapter<Settings>;
  /** What only `lib codegen` needs: introspection, fixtures, name spelling, how to connect. */
  readonly codegen: DialectCodegen;
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
