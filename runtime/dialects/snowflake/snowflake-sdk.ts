/**
 * Loads snowflake-sdk (an optional peer dependency) lazily, once, with what it would otherwise do
 * at module load switched off: probe cloud metadata endpoints (169.254.169.254,
 * metadata.google.internal, AWS STS) to detect the platform, and load its native "minicore"
 * helper. Never import the sdk statically: the environment variables must be set before its
 * first `require`.
 */
import type * as SnowflakeSdkModule from "snowflake-sdk";

import { importPeer } from "../../packages/peer-package.js";

export type SnowflakeSdk = typeof SnowflakeSdkModule;

let loading: Promise<SnowflakeSdk> | undefined;

export function loadSnowflakeSdk(): Promise<SnowflakeSdk> {
  loading ??= (async () => {
    // The sdk reads both variables once, while it loads: set them for the load only, so loading it
    // leaves the process environment as it was.
    const restore = setEnvForLoad({
      SNOWFLAKE_DISABLE_PLATFORM_DETECTION: "true",
      SNOWFLAKE_DISABLE_MINICORE: process.env.SNOWFLAKE_DISABLE_MINICORE ?? "1",
    });
    let imported: SnowflakeSdk & { default?: SnowflakeSdk };
    try {
      imported = (await importPeer(
        { name: "snowflake-sdk", usedFor: "backend_a (Snowflake)" },
        () => import("snowflake-sdk"),
      )) as SnowflakeSdk & {
        default?: SnowflakeSdk;
      };
    } finally {
      restore();
    }
    const sdk = imported.default ?? imported;
    // The sdk logs to ./snowflake.log by default. Its logger is process-wide: this is the one
    // setting loading it forces (once per process; README "Process-wide effects").
    sdk.configure({ logLevel: "OFF" });
    return sdk;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Sets environment variables and returns a function that restores their previous values. */
function setEnvForLoad(values: Readonly<Record<string, string>>): () => void {
  const previous = Object.keys(values).map((key) => [key, process.env[key]] as const);
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of previous) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
