/** Resolved settings of a `type = "backend_b"` connection (Databricks SQL). */
import type { CommonSettings } from "../common-settings.js";
import type { Secret } from "../../config/secret.js";

import type { BACKEND_B_AUTH_TYPES } from "./databricks-fields.js";

export type BackendBAuthType = (typeof BACKEND_B_AUTH_TYPES)[number];

export interface BackendBSettings extends CommonSettings {
  readonly type: "backend_b";
  /** Full connection string; it embeds the token, so it is a secret as a whole. */
  readonly uri?: Secret | undefined;
  readonly httpPath?: string | undefined;
  readonly token?: Secret | undefined;
  readonly catalog?: string | undefined;
  /** Milliseconds of silence on a connection before it fails (default 2 min). */
  readonly socketTimeout?: number | undefined;
  /** Milliseconds to establish a connection (TCP and TLS) before it fails (default 10 s). */
  readonly connectTimeout?: number | undefined;
  readonly authType?: BackendBAuthType | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: Secret | undefined;
  readonly azureTenantId?: string | undefined;
  readonly useDatabricksOAuthInAzure?: boolean | undefined;
}
