/**
 * The Snowflake stand-in in its own worker thread, for the benchmarks: a real warehouse runs
 * elsewhere, so its work (parsing, running the statement on its DuckDB, encoding the answer) must not
 * share the measured process's event loop. `startStandInWorker()` runs this file in a worker (compiled
 * as is, from source through tsx's loader) with `{ statementLatencyMs }`; the worker posts `{ port }` once listening and closes on
 * any message.
 */
import { once } from "node:events";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** A stand-in running in a worker thread: its port, and close(). */
export interface StandInWorker {
  readonly port: number;
  close(): Promise<void>;
}

export async function startStandInWorker(statementLatencyMs: number): Promise<StandInWorker> {
  // Compiled (the bench's default) it runs as is; from the TypeScript sources, through tsx's loader.
  const compiled = import.meta.url.endsWith(".js");
  const entry = JSON.stringify(import.meta.url);
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); })`;
  const worker = compiled
    ? new Worker(new URL(import.meta.url), { workerData: { statementLatencyMs } })
    : new Worker(boot, { eval: true, workerData: { statementLatencyMs } });
  const [{ port }] = (await Promise.race([
    once(worker, "message"),
    once(worker, "error").then(([error]) => Promise.reject(error as Error)),
  ])) as [{ port: number }];
  return {
    port,
    close: async () => {
      const exited = once(worker, "exit");
      worker.postMessage("close");
      await exited;
    },
  };
}

import { SnowflakeStandIn } from "../../test/support/stand-ins/snowflake/snowflake-stand-in.js";
import { standInOptions } from "../../test/support/stand-ins/snowflake/snowflake-stand-in-fixture.js";

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const { statementLatencyMs } = workerData as { readonly statementLatencyMs: number };
  const standIn = await SnowflakeStandIn.start(standInOptions({ statementLatencyMs }));
  port.once("message", () => {
    void standIn.close().then(() => port.close());
  });
  port.postMessage({ port: standIn.port });
}
