/** The TOML/config-object fields of a `type = "backend_c"` section (README "Configuration reference"). */
import { withCommonFields, type FieldSpec, type WithCommon } from "../../config/fields.js";

export const SEMANTIC_VIEWS_MODES = ["auto", "builtin", "extension"] as const;

export const BACKEND_C_FIELDS = [
  {
    toml: "database",
    camel: "database",
    kind: "string",
    default: ":memory:",
    description: "Path to a database file, or `:memory:` for an in-memory database",
  },
  {
    toml: "read_only",
    camel: "readOnly",
    kind: "boolean",
    default: false,
    description: "Open the database in read-only mode",
  },
  {
    toml: "create_if_missing",
    camel: "createIfMissing",
    kind: "boolean",
    default: false,
    description:
      "Create the database file when it does not exist; otherwise opening a missing file fails, naming the path. " +
      "Default `false` for a path from a configuration file or the environment, `true` for one a config object gives",
  },
  {
    toml: "semantic_views",
    camel: "semanticViews",
    kind: "enum",
    values: SEMANTIC_VIEWS_MODES,
    default: "auto",
    description: "`auto` (extension if installed, else built-in), `builtin` or `extension`",
  },
] as const satisfies readonly FieldSpec[];

/** Every field a section accepts, common fields first. */
export const BACKEND_C_ALL_FIELDS = withCommonFields(BACKEND_C_FIELDS);

export type BackendCFields = WithCommon<typeof BACKEND_C_FIELDS>;
