/** Resolved settings of a `type = "backend_c"` connection (DuckDB). */
import type { CommonSettings } from "../common-settings.js";
import type { SEMANTIC_VIEWS_MODES } from "./duckdb-fields.js";

/** How backend C answers semantic-view statements (README "Backend C semantic views"). */
export type SemanticViewsMode = (typeof SEMANTIC_VIEWS_MODES)[number];

export interface BackendCSettings extends CommonSettings {
  readonly type: "backend_c";
  /** A database file path, or `:memory:`. */
  readonly database: string;
  readonly readOnly: boolean;
  /** Create a missing database file (otherwise opening it fails); unused for `:memory:`. */
  readonly createIfMissing: boolean;
  readonly semanticViews: SemanticViewsMode;
}
