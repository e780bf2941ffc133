/** Config object for backend B (Databricks): the fields of a `type = "backend_b"` section, in camelCase. */
import { BackendConfig, type ConfigObjectOptions } from "../../config/backend-config.js";
import type { ConfigInputOf } from "../../config/fields.js";
import { resolveConfigObject } from "../resolve-settings.js";
import type { BackendBFields } from "./databricks-fields.js";
import type { BackendBSettings } from "./databricks-settings.js";

/** Every field optional; secrets are plain strings here and `Secret`s in `settings`. */
export type BackendBConfigInput = ConfigInputOf<BackendBFields>;

export class BackendBConfig extends BackendConfig<BackendBSettings> {
  constructor(input: BackendBConfigInput = {}, options: ConfigObjectOptions = {}) {
    super(resolveConfigObject("backend_b", input, options, new.target.name));
  }
}
