/**
 * `npm start`: create the engine once from `[connections.default]` of `.lib.toml` (or `LIB_CONFIG`),
 * or else from the demo DuckDB file (seeded on first run), serve on PORT (default 8000), and shut
 * down cleanly on SIGINT/SIGTERM.
 */
import { chooseEngine } from "./choose-engine.js";
import { startService, type RunningService } from "./lifespan.js";
import { consoleLogger as logger, describeError } from "./logger.js";

const port = Number(process.env.PORT || 8000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  logger.error(`PORT must be an integer between 0 and 65535, got '${process.env.PORT}'`);
  process.exit(2);
}

let service: RunningService;
try {
  const chosen = await chooseEngine({ env: process.env, cwd: process.cwd() });
  logger.info(chosen.description);
  service = await startService({ engine: chosen.engine, port, host: process.env.HOST, logger });
} catch (error) {
  // One line that says what failed, not a stack trace.
  logger.error(`lib example service could not start (port ${port}): ${startupProblem(error)}`);
  process.exit(1);
}
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

function startupProblem(error: unknown): string {
  // The code may sit on the cause (a demo-database error names the path around DuckDB's error).
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  if (code === "EADDRINUSE") return `port ${port} is already in use: stop the other process or set PORT`;
  if (code === "EACCES")
    return `not allowed (${describeError(error)}): check the permissions of the database directory, or use a port above 1023`;
  return describeError(error);
}
