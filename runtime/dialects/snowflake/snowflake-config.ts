/** Config object for backend A (Snowflake): the fields of a `type = "backend_a"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "../../config/backend-config.js";
import type { ConfigInputOf } from "../../config/fields.js";
import { resolveConfigObject } from "../resolve-settings.js";
import type { BackendAFields } from "./snowflake-fields.js";
import type { BackendASettings } from "./snowflake-settings.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendAConfigInput = ConfigInputOf<BackendAFields>;

export class BackendAConfig extends BackendConfig<BackendASettings> {
  constructor(input: BackendAConfigInput = {}, options: ConfigObjectOptions = {}) {
    super(resolveConfigObject("backend_a", input, options, new.target.name));
  }
}
