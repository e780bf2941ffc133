/**
 * Loads snowflake-sdk lazily, once, after switching off what it would otherwise do at module
 * load: probe cloud metadata endpoints (169.254.169.254, metadata.google.internal, AWS STS) to
 * detect the platform, and load its native "minicore" helper. Never import the sdk statically:
 * the environment variables must be set before its first `require`.
 */
import type * as SnowflakeSdkModule from "snowflake-sdk";

export type SnowflakeSdk = typeof SnowflakeSdkModule;

let loading: Promise<SnowflakeSdk> | undefined;

export function loadSnowflakeSdk(): Promise<SnowflakeSdk> {
  loading ??= (async () => {
    process.env.SNOWFLAKE_DISABLE_PLATFORM_DETECTION = "true";
    process.env.SNOWFLAKE_DISABLE_MINICORE ??= "1";
    const imported = (await import("snowflake-sdk")) as SnowflakeSdk & { default?: SnowflakeSdk };
    const sdk = imported.default ?? imported;
    // The sdk logs to ./snowflake.log by default: keep quiet unless the user configured otherwise.
    sdk.configure({ logLevel: "OFF" });
    return sdk;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
