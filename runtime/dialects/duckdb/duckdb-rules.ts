/** Backend C: the pool size and overflow of an in-memory database, read-only needing a file and never creating one. */
import type { ConfigContext } from "../../config/config-context.js";
import { fieldIn, type FieldSpec } from "../../config/fields.js";
import { BACKEND_C_ALL_FIELDS } from "./duckdb-fields.js";
import type { BackendRules, ResolvedValues } from "../../config/resolved-values.js";

export const IN_MEMORY = ":memory:";

const field = (toml: string): FieldSpec => fieldIn(BACKEND_C_ALL_FIELDS, toml);

export const duckdbRules: BackendRules = {
  applyDefaults(values: ResolvedValues, ctx: ConfigContext): void {
    // Every physical connection to :memory: is its own database, so the pool holds exactly one.
    if (!values.has("pool_size")) {
      const inMemory = (values.string("database") ?? IN_MEMORY) === IN_MEMORY;
      values.set(field("pool_size"), inMemory ? 1 : 5, { kind: "default" });
    }
    // A path typed into a configuration file or the environment is where typos happen: it must
    // name an existing file. A path a program passes in a config object is its own database,
    // created as DuckDB creates it (unless opened read-only, which never creates).
    if (!values.has("create_if_missing")) {
      const database = values.entry("database");
      const fromCode = ctx.naming === "camel" && database?.origin.kind === "input" && database.value !== IN_MEMORY;
      if (fromCode && values.get("read_only") !== true) {
        values.set(field("create_if_missing"), true, { kind: "default" });
      }
    }
  },

  validate(values: ResolvedValues, ctx: ConfigContext): void {
    const database = values.entry("database");
    if (database !== undefined && database.value === "") {
      throw ctx.fail(
        database.field,
        `must be a database file path or ":memory:", got an empty string`,
        database.origin,
      );
    }
    const createIfMissing = values.entry("create_if_missing");
    if (
      createIfMissing?.value === true &&
      createIfMissing.origin.kind !== "default" &&
      values.get("read_only") === true
    ) {
      throw ctx.fail(
        createIfMissing.field,
        `= true cannot be combined with ${values.describe(field("read_only"), ctx)} = true: a read-only open never ` +
          `creates the database file. Create it first, or drop one of the two.`,
        createIfMissing.origin,
      );
    }
    if (values.get("database") !== IN_MEMORY) return;
    const poolSize = values.entry("pool_size");
    if (poolSize !== undefined && typeof poolSize.value === "number" && poolSize.value > 1) {
      throw ctx.fail(
        poolSize.field,
        `= ${poolSize.value} is not allowed with ${values.describe(field("database"), ctx)} = ":memory:": every in-memory ` +
          `connection is a separate database, so the pool size must be 1. Use a database file path for concurrent connections.`,
        poolSize.origin,
      );
    }
    // The default overflow is harmless (the engine never overflows a private database), but an
    // explicit one asks for connections that could not share the data, so it is refused like pool_size.
    const overflow = values.entry("max_overflow");
    if (
      overflow !== undefined &&
      overflow.origin.kind !== "default" &&
      typeof overflow.value === "number" &&
      overflow.value > 0
    ) {
      throw ctx.fail(
        overflow.field,
        `= ${overflow.value} is not allowed with ${values.describe(field("database"), ctx)} = ":memory:": every in-memory ` +
          `connection is a separate database, so no overflow connection can be opened. Set it to 0 or use a database file path.`,
        overflow.origin,
      );
    }
    const readOnly = values.entry("read_only");
    if (readOnly !== undefined && readOnly.value === true) {
      throw ctx.fail(
        readOnly.field,
        `= true needs a database file: an in-memory database cannot be opened read-only`,
        readOnly.origin,
      );
    }
  },
};
