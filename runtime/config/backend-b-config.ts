/** Config object for backend B: the fields of a `type = "backend_b"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "./backend-config.js";
import type { BackendBFields, ConfigInputOf } from "./fields.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendBConfigInput = ConfigInputOf<BackendBFields>;

export class BackendBConfig extends BackendConfig<"backend_b"> {
  constructor(input: BackendBConfigInput = {}, options: ConfigObjectOptions = {}) {
    super("backend_b", input, options);
  }
}
