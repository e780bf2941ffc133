/** Config object for backend A (Snowflake): the fields of a `type = "backend_a"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "../../config/backend-config.js";
import type { ConfigInputOf } from "../../config/fields.js";
import type { BackendAFields } from "./snowflake-fields.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendAConfigInput = ConfigInputOf<BackendAFields>;

export class BackendAConfig extends BackendConfig<"backend_a"> {
  constructor(input: BackendAConfigInput = {}, options: ConfigObjectOptions = {}) {
    super("backend_a", input, options);
  }
}
