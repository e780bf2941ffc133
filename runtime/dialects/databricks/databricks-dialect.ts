/** Backend B: Databricks SQL metric views through `@databricks/sql`. */
import type { Dialect } from "../dialect.js";
import { databricksFixture } from "./databricks-fixture.js";
import { DatabricksDriver } from "./databricks-driver.js";
import { BACKEND_B_ALL_FIELDS, BACKEND_B_FIELDS } from "./databricks-fields.js";
import { DatabricksIntrospector } from "./databricks-introspector.js";
import { DatabricksQueryCompiler } from "./databricks-query-compiler.js";
import { databricksRules } from "./databricks-rules.js";
import type { BackendBSettings } from "./databricks-settings.js";
import { BACKEND_B_UNHONOURED, warnUnhonouredFields } from "./databricks-unhonoured.js";
import { DATABRICKS_TYPES } from "./databricks-types.js";

const REFERENCE_NOTES =
  "Backend B takes either `uri` or `host` + `http_path` + `token` (with `auth_type` OAuthU2M/OAuthM2M, `host` + `http_path`;\n" +
  "OAuthM2M also needs `client_id` and `client_secret`). Setting `uri` with `host`, `http_path`, `token` or `port` is rejected as\n" +
  "ambiguous; when the file sets fields of one mode, environment variables of the other mode are ignored.\n" +
  "Accepted on backend B but not honoured (creating the engine emits a `process` warning, code `LIB_BACKEND_B_UNHONOURED_FIELD`, once):\n" +
  BACKEND_B_UNHONOURED.map(
    (f) => `${f.toml === "protocol" ? '`protocol = "http"`' : `\`${f.toml}\``} → use ${f.instead}`,
  ).join("; ") +
  ".";

export const databricksDialect: Dialect<"backend_b", BackendBSettings> = {
  name: "backend_b",
  label: "Backend B",
  warehouse: "Databricks",
  config: {
    envPrefix: "BACKEND_B_",
    unprefixedEnv: ["schema"],
    fields: BACKEND_B_ALL_FIELDS,
    ownFields: BACKEND_B_FIELDS,
    rules: databricksRules,
    className: "BackendBConfig",
    referenceNotes: REFERENCE_NOTES,
  },
  createDriver: (settings: BackendBSettings) => new DatabricksDriver(settings),
  types: DATABRICKS_TYPES,
  createQueryCompiler: () => new DatabricksQueryCompiler(),
  adapter: {
    everyConnectionIsPrivate: () => false,
    checkEngineSettings: warnUnhonouredFields,
    databaseIsFile: false,
  },
  codegen: {
    source: { kind: "section" },
    createIntrospector: (source) => new DatabricksIntrospector(source),
    readFixture: databricksFixture,
    portableName: (name) => name,
  },
};
