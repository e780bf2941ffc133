/**
 * The engine `npm start` serves from: `[connections.default]` of the configuration file
 * (`LIB_CONFIG`, else `.lib.toml` in the working directory) when that file exists, so pointing the
 * service at backend A or B is a configuration change; otherwise the seeded demo DuckDB file.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { DEFAULT_DEMO_DATABASE, seedDemoDatabase } from "../scripts/seed-demo.js";

export interface ChosenEngine {
  readonly engine: Engine;
  /** What was chosen, for the startup log. */
  readonly description: string;
}

export interface ChooseEngineOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export async function chooseEngine({ env, cwd }: ChooseEngineOptions): Promise<ChosenEngine> {
  const explicit = env["LIB_CONFIG"] !== undefined && env["LIB_CONFIG"] !== "";
  const configPath = resolve(cwd, explicit ? env["LIB_CONFIG"]! : ".lib.toml");
  if (existsSync(configPath)) {
    const engine = createEngine("default", { configPath });
    return { engine, description: `using [connections.default] of ${configPath} (${engine.backend})` };
  }
  // A configuration the user named must exist; only the implicit .lib.toml may be absent.
  if (explicit) throw new Error(`LIB_CONFIG names ${configPath}, which does not exist`);
  const given = env["BACKEND_C_DATABASE"] || undefined;
  const database = resolve(cwd, given ?? DEFAULT_DEMO_DATABASE);
  // Only the demo default gets its directory created; a BACKEND_C_DATABASE in a missing one fails.
  const seeded = await seedDemoDatabase(database, { createDirectory: given === undefined }).catch((error: unknown) => {
    // Name the path: DuckDB's own message may not say which file it could not open.
    throw new Error(`cannot open the demo database ${database}`, { cause: error });
  });
  const how = seeded.created ? "seeded" : "using";
  return {
    engine: createEngine(new BackendCConfig({ database })),
    description: `no ${configPath}: ${how} demo database ${database} (${seeded.rows} sales rows)`,
  };
}
