/** Backend A: Snowflake semantic views through `snowflake-sdk`. */
import type { Dialect } from "../dialect.js";
import { snowflakeFixture } from "./snowflake-fixture.js";
import { SnowflakeDriver } from "./snowflake-driver.js";
import { BACKEND_A_ALL_FIELDS, BACKEND_A_FIELDS } from "./snowflake-fields.js";
import { SnowflakeIntrospector } from "./snowflake-introspector.js";
import { portableSnowflakeName, SnowflakeQueryCompiler } from "./snowflake-query-compiler.js";
import { snowflakeRules } from "./snowflake-rules.js";
import type { BackendASettings } from "./snowflake-settings.js";
import { SNOWFLAKE_TYPES } from "./snowflake-types.js";

export const snowflakeDialect: Dialect<"backend_a", BackendASettings> = {
  name: "backend_a",
  label: "Backend A",
  warehouse: "Snowflake",
  config: {
    envPrefix: "BACKEND_A_",
    unprefixedEnv: ["schema"],
    fields: BACKEND_A_ALL_FIELDS,
    ownFields: BACKEND_A_FIELDS,
    rules: snowflakeRules,
    className: "BackendAConfig",
  },
  createDriver: (settings: BackendASettings) => new SnowflakeDriver(settings),
  types: SNOWFLAKE_TYPES,
  createQueryCompiler: () => new SnowflakeQueryCompiler(),
  adapter: {
    everyConnectionIsPrivate: () => false,
    databaseIsFile: false,
  },
  codegen: {
    source: { kind: "section" },
    createIntrospector: (source) => new SnowflakeIntrospector(source),
    readFixture: snowflakeFixture,
    portableName: portableSnowflakeName,
  },
};
