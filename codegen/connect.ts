/**
 * Opening what introspection reads from, through the library's own engine: a database-file dialect
 * (backend C) opens the file as its `codegen.source` says (read-only), the others use
 * `[connections.<backend>]` like any application would.
 */
import { existsSync } from "node:fs";
import type { Engine } from "../runtime/index.js";
import {
  dialectOf,
  engineFromSettings,
  labelInSentence,
  resolveConfigObject,
  type IntrospectionSource,
} from "../runtime/internal.js";
import type { CodegenTarget } from "./codegen-settings.js";

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
  const dialect = dialectOf(target.backend);
  const fileLabel = "database" in target ? `${labelInSentence(target.backend)} database ${target.database}` : "";
  if ("database" in target && !existsSync(target.database)) {
    throw new ConnectFailure(`cannot open ${fileLabel}: no such file`);
  }
  let engine: Engine;
  try {
    if ("database" in target) {
      const source = dialect.codegen.source;
      if (source.kind !== "database-file") throw new Error(`${target.backend} reads no database file`);
      engine = engineFromSettings(resolveConfigObject(target.backend, source.connection(target.database)));
    } else {
      engine = engineFromSettings(target.settings);
    }
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
    const what = "database" in target ? fileLabel : `[connections.${target.backend}]`;
    throw new ConnectFailure(`cannot connect to ${what}: ${describe(error)}`, { cause: error });
  }
};

/** The innermost useful message (LibConnectionError wraps the driver's error as `cause`). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
