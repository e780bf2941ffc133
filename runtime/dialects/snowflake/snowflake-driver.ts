/**
 * The backend A driver: Snowflake sessions through snowflake-sdk 3.x (loaded lazily, see
 * snowflake-sdk.ts). Each physical connection is one logged-in session. Login is bounded by our
 * own deadline (login_timeout, default 60 s) and few sdk retries, because the sdk's default retry
 * budget keeps a connect to an unreachable host pending for minutes. A failed login rejects with a
 * `SnowflakeDriverError` (message scrubbed of secrets; the sdk's error is not kept because it may
 * carry the login request) and the pool surfaces it as `LibConnectionError`.
 */
import { secretForms } from "../../driver/secret-redaction.js";
import type { Connection } from "snowflake-sdk";
import type { BackendASettings } from "./snowflake-settings.js";
import type { DatabaseConnection } from "../../driver/database-connection.js";
import type { Driver } from "../../driver/driver.js";
import { SnowflakeDatabaseConnection } from "./snowflake-connection.js";
import { SnowflakeDriverError } from "./snowflake-driver-error.js";
import { isSnowflakeDisconnect } from "./snowflake-errors.js";
import {
  loginDeadlineMs,
  snowflakeConnectionOptions,
  snowflakeGlobalSettings,
  type SnowflakeConnectionOptions,
} from "./snowflake-options.js";
import { loadSnowflakeSdk, type SnowflakeSdk } from "./snowflake-sdk.js";

/** How often a running statement's session is checked when heartbeat_interval is not set. */
export const DEFAULT_LIVENESS_INTERVAL_MS = 10_000;
/** `request_timeout` when unset: no statement waits for an answer longer than this (`0s`: no bound). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/**
 * Run once per session, pinning what the account or user may have set otherwise:
 * - TIMEZONE: `lib` reads TIMESTAMP_NTZ as a UTC wall clock and binds a `Date` as one
 *   (`TO_TIMESTAMP_NTZ(?, 3)`); Snowflake converts between NTZ and LTZ/TZ in the session time zone, so
 *   the session runs in UTC, and a `Date` filter means the same instant on every timestamp type.
 * - QUOTED_IDENTIFIERS_IGNORE_CASE: when TRUE (an account or user setting some connectors and setup
 *   guides make), letters in quoted identifiers resolve upper case, so a member created as
 *   `"orderedAt"` no longer resolves and aliases come back upper case. FALSE keeps quoted names exact.
 */
export const SESSION_SETUP = "ALTER SESSION SET TIMEZONE = 'UTC', QUOTED_IDENTIFIERS_IGNORE_CASE = FALSE";

export class SnowflakeDriver implements Driver {
  readonly #settings: BackendASettings;
  readonly #options: SnowflakeConnectionOptions;
  readonly #secrets: readonly string[];
  readonly #open = new Set<SnowflakeDatabaseConnection>();
  #destroyed = false;

  /** Validates the settings eagerly (ValidationError), without loading the sdk. */
  constructor(settings: BackendASettings) {
    this.#settings = settings;
    this.#options = snowflakeConnectionOptions(settings);
    // Every form the sdk or a printer may echo (trimmed, escaped, encoded): driver/secret-redaction.ts.
    this.#secrets = secretForms(
      [settings.password, settings.oauthToken, settings.privateKeyPem, settings.privateKeyPassphrase].map((s) =>
        s?.reveal(),
      ),
    );
  }

  async openConnection(): Promise<DatabaseConnection> {
    if (this.#destroyed) throw new Error("The backend A driver has been destroyed");
    const sdk = await loadSnowflakeSdk();
    applyGlobalSettings(sdk, this.#settings);
    let connection: Connection;
    try {
      connection = sdk.createConnection(this.#options as Parameters<SnowflakeSdk["createConnection"]>[0]);
    } catch (error) {
      throw SnowflakeDriverError.from(error, this.#secrets);
    }
    await this.#login(connection);
    const opened = new SnowflakeDatabaseConnection(connection, {
      requestTimeoutMs: this.#settings.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
      queryTag: this.#settings.queryTag,
      livenessIntervalMs: this.#settings.heartbeatInterval ?? DEFAULT_LIVENESS_INTERVAL_MS,
      secrets: this.#secrets,
    });
    try {
      await opened.execute(SESSION_SETUP);
    } catch (error) {
      await opened.close();
      throw error;
    }
    this.#open.add(opened);
    const close = opened.close.bind(opened);
    opened.close = () => {
      this.#open.delete(opened);
      return close();
    };
    return opened;
  }

  /** Network failures, a session the warehouse no longer knows (390xxx), our request deadline. */
  isDisconnect(error: unknown): boolean {
    return isSnowflakeDisconnect(error);
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    await Promise.all([...this.#open].map((c) => c.close()));
  }

  #login(connection: Connection): Promise<void> {
    const deadline = loginDeadlineMs(this.#settings);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        try {
          connection.destroy(() => undefined);
        } catch {
          // not connected yet
        }
        reject(
          new SnowflakeDriverError(`Login to backend A did not finish within ${deadline} ms`, {
            code: "login_timeout",
          }),
        );
      }, deadline);
      timer.unref();
      // connectAsync() resolves even when the login fails; connect(cb) reports the error.
      connection.connect((error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          try {
            connection.destroy(() => undefined);
          } catch {
            // never connected
          }
          reject(SnowflakeDriverError.from(error, this.#secrets));
        } else resolve();
      });
    });
  }
}

/** The sdk only offers these process-wide: the latest connection's settings win. */
function applyGlobalSettings(sdk: SnowflakeSdk, settings: BackendASettings): void {
  const global = snowflakeGlobalSettings(settings);
  sdk.configure({ ocspFailOpen: global.ocspFailOpen });
  if (global.disableTelemetry) process.env.SF_TELEMETRY_DISABLE_CONNECTION_SHAPE = "1";
}
