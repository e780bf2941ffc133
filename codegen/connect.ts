/**
 * Opening what introspection reads from, through the library's own engine: backend C opens the
 * DuckDB file read-only (the built-in semantic engine or the extension answers the metadata
 * functions), backends A and B use `[connections.<backend>]` like any application would.
 */
import { existsSync } from "node:fs";
import type { IntrospectionSource } from "./introspect/metadata.js";
import type { Engine } from "../runtime/engine/engine.js";
import type { CodegenTarget } from "./settings.js";

export interface IntrospectionConnection {
  readonly source: IntrospectionSource;
  close(): Promise<void>;
}

/** Connects to a target; rejects with `ConnectFailure` when it cannot. */
export type Connector = (target: CodegenTarget) => Promise<IntrospectionConnection>;

/** The warehouse (or database file) could not be opened, reached or authenticated against. */
export class ConnectFailure extends Error {
  override readonly name = "ConnectFailure";
}

export const engineConnector: Connector = async (target) => {
  if (target.backend === "backend_c" && !existsSync(target.database)) {
    throw new ConnectFailure(`cannot open backend C database ${target.database}: no such file`);
  }
  // Loaded lazily so `--help` and usage errors do not pay for the engine and its drivers.
  const [{ createEngine, engineFromSettings }, { BackendCConfig }] = await Promise.all([
    import("../runtime/engine/create-engine.js"),
    import("../runtime/config/backend-c-config.js"),
  ]);
  let engine: Engine;
  try {
    engine =
      target.backend === "backend_c"
        ? // Read-only: introspection never writes, and a read-only open never creates a missing file.
          createEngine(new BackendCConfig({ database: target.database, readOnly: true, poolSize: 1 }))
        : engineFromSettings(target.settings);
  } catch (error) {
    throw new ConnectFailure(describe(error), { cause: error });
  }
  try {
    const connection = await engine.connect();
    return {
      source: connection,
      async close() {
        try {
          await connection.release();
        } finally {
          await engine.dispose();
        }
      },
    };
  } catch (error) {
    await engine.dispose().catch(() => undefined);
    const what =
      target.backend === "backend_c" ? `backend C database ${target.database}` : `[connections.${target.backend}]`;
    throw new ConnectFailure(`cannot connect to ${what}: ${describe(error)}`, { cause: error });
  }
};

/** The innermost useful message (LibConnectionError wraps the driver's error as `cause`). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
