/** Config object for backend C: the fields of a `type = "backend_c"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "./backend-config.js";
import type { BackendCFields, ConfigInputOf } from "./fields.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendCConfigInput = ConfigInputOf<BackendCFields>;

export class BackendCConfig extends BackendConfig<"backend_c"> {
  constructor(input: BackendCConfigInput = {}, options: ConfigObjectOptions = {}) {
    super("backend_c", input, options);
  }
}
