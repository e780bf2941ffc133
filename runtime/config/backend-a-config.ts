/** Config object for backend A: the fields of a `type = "backend_a"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "./backend-config.js";
import type { BackendAFields, ConfigInputOf } from "./fields.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendAConfigInput = ConfigInputOf<BackendAFields>;

export class BackendAConfig extends BackendConfig<"backend_a"> {
  constructor(input: BackendAConfigInput = {}, options: ConfigObjectOptions = {}) {
    super("backend_a", input, options);
  }
}
