/**
 * A dialect's capabilities (Kysely's `DialectAdapter`: the differences outside the driver and the
 * compiler): what the engine and the messages ask instead of checking which backend they have.
 */
export interface DialectAdapter<Settings> {
  /**
   * True when every physical connection is a database of its own (in-memory DuckDB): an overflow
   * connection would answer from an empty database, so the engine never opens one.
   */
  everyConnectionIsPrivate(settings: Settings): boolean;
  /** Called once per engine created, e.g. to warn about settings the driver cannot honour. */
  checkEngineSettings?(settings: Settings): void;
  /** The `database` setting names a local database file (messages show it instead of the backend). */
  readonly databaseIsFile: boolean;
}
