/** Resolved settings of a `type = "backend_a"` connection (Snowflake). */
import type { CommonSettings } from "../common-settings.js";
import type { Secret } from "../../config/secret.js";

import type { BACKEND_A_AUTH_TYPES } from "./snowflake-fields.js";

export type BackendAAuthType = (typeof BACKEND_A_AUTH_TYPES)[number];

export interface BackendASettings extends CommonSettings {
  readonly type: "backend_a";
  readonly account?: string | undefined;
  readonly warehouse?: string | undefined;
  readonly role?: string | undefined;
  readonly region?: string | undefined;
  /** Milliseconds. */
  readonly loginTimeout?: number | undefined;
  readonly requestTimeout?: number | undefined;
  readonly clientTimeout?: number | undefined;
  /** Milliseconds between liveness checks of a running statement's session (default 10 s). */
  readonly heartbeatInterval?: number | undefined;
  readonly tlsSkipVerify: boolean;
  readonly ocspFailOpenMode: boolean;
  readonly keepSessionAlive: boolean;
  readonly appName?: string | undefined;
  /** QUERY_TAG of every statement; undefined: the default tag per statement; `""`: none. */
  readonly queryTag?: string | undefined;
  readonly disableTelemetry: boolean;
  readonly cacheMfaToken: boolean;
  readonly storeTempCreds: boolean;
  readonly authType?: BackendAAuthType | undefined;
  readonly privateKeyPath?: string | undefined;
  readonly privateKeyPem?: Secret | undefined;
  readonly privateKeyPassphrase?: Secret | undefined;
  readonly jwtExpireTimeout?: number | undefined;
  readonly oauthToken?: Secret | undefined;
  readonly ssoUrl?: string | undefined;
  readonly identityProvider?: string | undefined;
}
