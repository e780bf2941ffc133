/**
 * `npm start`: create the engine once from `[connections.default]` of `.lib.toml` (or `LIB_CONFIG`),
 * or else from the demo DuckDB file (seeded on first run), serve on PORT (default 8000), and shut
 * down cleanly on SIGINT/SIGTERM.
 */
import { chooseEngine } from "./choose-engine.js";
import { startService } from "./lifespan.js";
import { consoleLogger as logger } from "./logger.js";

const port = Number(process.env.PORT || 8000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  logger.error(`PORT must be an integer between 0 and 65535, got '${process.env.PORT}'`);
  process.exit(2);
}

let chosen: Awaited<ReturnType<typeof chooseEngine>>;
try {
  chosen = await chooseEngine({ env: process.env, cwd: process.cwd() });
} catch (error) {
  logger.error("cannot create the engine", error);
  process.exit(2);
}
logger.info(chosen.description);
const engine = chosen.engine;
const service = await startService({ engine, port, host: process.env.HOST, logger });
logger.info(`lib example service listening on ${service.url} (docs: ${service.url}docs/)`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info(`${signal} received`);
    service.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error("shutdown failed", error);
        process.exit(1);
      },
    );
  });
}
