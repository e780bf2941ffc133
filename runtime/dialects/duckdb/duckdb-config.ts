/** Config object for backend C (DuckDB): the fields of a `type = "backend_c"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "../../config/backend-config.js";
import type { ConfigInputOf } from "../../config/fields.js";
import { resolveConfigObject } from "../resolve-settings.js";
import type { BackendCFields } from "./duckdb-fields.js";
import type { BackendCSettings } from "./duckdb-settings.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendCConfigInput = ConfigInputOf<BackendCFields>;

export class BackendCConfig extends BackendConfig<BackendCSettings> {
  constructor(input: BackendCConfigInput = {}, options: ConfigObjectOptions = {}) {
    super(resolveConfigObject("backend_c", input, options, new.target.name));
  }
}
