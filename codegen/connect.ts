/**
 * Opening what introspection reads from, through the library's own engine: backend C opens the
 * DuckDB file read-only (the built-in semantic engine or the extension answers the metadata
 * functions), backends A and B use `[connections.<backend>]` like any application would.
 */
import { existsSync } from "node:fs";
import type { IntrospectionSource } from "./introspect/metadata.js";
import type { CodegenTarget } from "./settings.js";

export interface IntrospectionConnection {
  readonly source: IntrospectionSource;
  close(): Promise<void>;
}

/** Connects to a target; rejects with `ConnectFailure` when it cannot. */
export type Connector = (target: CodegenTarget, configPath: string) => Promise<IntrospectionConnection>;

/** The warehouse (or database file) could not be opened, reached or authenticated against. */
export class ConnectFailure extends Error {
  override readonly name = "ConnectFailure";
}

interface EngineLike {
  connect(): Promise<IntrospectionSource & { release(): Promise<void> }>;
  dispose(): Promise<void>;
}

interface RuntimeEntry {
  createEngine(nameOrConfig: unknown, options?: { configPath?: string }): EngineLike;
  BackendCConfig: new (input: { database: string; readOnly?: boolean; poolSize?: number }) => unknown;
}

async function loadRuntime(): Promise<RuntimeEntry> {
  // Loaded lazily so `--help` and usage errors do not pay for the engine and its drivers.
  const runtime = (await import("../runtime/index.js")) as unknown as Partial<RuntimeEntry>;
  if (typeof runtime.createEngine !== "function" || typeof runtime.BackendCConfig !== "function") {
    throw new ConnectFailure("this build of lib has no engine (createEngine is not exported)");
  }
  return runtime as RuntimeEntry;
}

export const engineConnector: Connector = async (target, configPath) => {
  if (target.backend === "backend_c" && !existsSync(target.database)) {
    throw new ConnectFailure(`cannot open backend C database ${target.database}: no such file`);
  }
  const runtime = await loadRuntime();
  let engine: EngineLike;
  try {
    engine =
      target.backend === "backend_c"
        ? runtime.createEngine(new runtime.BackendCConfig({ database: target.database, readOnly: true, poolSize: 1 }))
        : runtime.createEngine(target.backend, { configPath });
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
    const what = target.backend === "backend_c" ? `backend C database ${target.database}` : `[connections.${target.backend}]`;
    throw new ConnectFailure(`cannot connect to ${what}: ${describe(error)}`, { cause: error });
  }
};

/** The innermost useful message (LibConnectionError wraps the driver's error as `cause`). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
