/** Config object for backend B (Databricks): the fields of a `type = "backend_b"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "../../config/backend-config.js";
import type { ConfigInputOf } from "../../config/fields.js";
import type { BackendBFields } from "./databricks-fields.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendBConfigInput = ConfigInputOf<BackendBFields>;

export class BackendBConfig extends BackendConfig<"backend_b"> {
  constructor(input: BackendBConfigInput = {}, options: ConfigObjectOptions = {}) {
    super("backend_b", input, options);
  }
}
