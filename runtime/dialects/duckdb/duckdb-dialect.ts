/** Backend C: DuckDB in-process through `@duckdb/node-api`, semantic views by extension or built in. */
import type { Dialect } from "../dialect.js";
import { duckdbFixture } from "./duckdb-fixture.js";
import { DuckDBDriver, MEMORY_DATABASE, type DuckDBDriverOptions } from "./duckdb-driver.js";
import { BACKEND_C_ALL_FIELDS, BACKEND_C_FIELDS } from "./duckdb-fields.js";
import { DuckDBIntrospector } from "./duckdb-introspector.js";
import { DuckDBQueryCompiler } from "./duckdb-query-compiler.js";
import { duckdbRules } from "./duckdb-rules.js";
import type { BackendCSettings } from "./duckdb-settings.js";
import { DUCKDB_TYPES } from "./duckdb-types.js";

const REFERENCE_NOTES =
  'With `database = ":memory:"` every connection is its own database: `pool_size` defaults to 1 and a larger value is rejected,\n' +
  "an explicit `max_overflow` above 0 is rejected (the default 3 is not applied); `read_only = true` needs a database file.\n" +
  "`schema` becomes every connection's current schema (`SET schema`); an in-memory database creates it, a database file must have it.\n" +
  "A `database` file from a configuration file or `BACKEND_C_DATABASE` must exist unless `create_if_missing = true`: opening a\n" +
  "missing one fails with `LibConnectionError` naming the path (a mistyped path is never created empty). A config object that\n" +
  "names its `database` in code creates it (`createIfMissing: false` refuses); `create_if_missing = true` with `read_only = true` is rejected.";

export const duckdbDialect: Dialect<"backend_c", BackendCSettings, DuckDBDriverOptions> = {
  name: "backend_c",
  label: "Backend C",
  warehouse: "DuckDB",
  config: {
    envPrefix: "BACKEND_C_",
    fields: BACKEND_C_ALL_FIELDS,
    ownFields: BACKEND_C_FIELDS,
    rules: duckdbRules,
    className: "BackendCConfig",
    referenceNotes: REFERENCE_NOTES,
  },
  createDriver: (settings: BackendCSettings, options?: DuckDBDriverOptions) => new DuckDBDriver(settings, options),
  types: DUCKDB_TYPES,
  createQueryCompiler: () => new DuckDBQueryCompiler(),
  adapter: {
    // Every physical connection to :memory: is a database of its own.
    everyConnectionIsPrivate: (settings: BackendCSettings) => settings.database === MEMORY_DATABASE,
    databaseIsFile: true,
  },
  codegen: {
    // Read-only: introspection never writes, and a read-only open never creates a missing file.
    source: { kind: "database-file", connection: (path) => ({ database: path, readOnly: true, poolSize: 1 }) },
    createIntrospector: (source) => new DuckDBIntrospector(source),
    readFixture: duckdbFixture,
    portableName: (name) => name,
  },
};
