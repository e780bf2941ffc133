/**
 * Issue 9.6: nothing waits forever on a warehouse that stopped answering. `engine.dispose()` gives
 * up after `dispose_timeout` and abandons what is still open; the example service's shutdown cuts
 * requests still in flight after its deadline. Outcomes only: the waits end while the
 * unresponsive party is still not answering.
 */
import { join } from "node:path";
import { expect } from "chai";
import { BackendBConfig, BackendCConfig, createEngine } from "lib";
import { startService } from "../../example-service/lifespan.js";
import { recordingLogger, seedDatabaseFile } from "../service/support/service-harness.js";
import { SALES_ROWS } from "../support/sales-fixture.js";
import { tempDir } from "../support/temp-dir.js";
import { blackhole } from "../support/blackhole.js";

describe("reliability: bounded shutdown (issue 9.6)", function () {
  this.timeout(20_000);

  it("backend B: dispose() returns after dispose_timeout while a login to a host that never answers is still pending", async () => {
    const host = await blackhole();
    try {
      const engine = createEngine(
        new BackendBConfig({
          host: "127.0.0.1",
          port: host.port,
          httpPath: "/sql/1.0/warehouses/x",
          token: "dapi-x",
          poolSize: 1,
          disposeTimeout: 1,
        }),
      );
      const checkout = engine.connect().then(
        () => "connected",
        (error: unknown) => error,
      );
      while (host.sockets.size === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await engine.dispose();
      expect(host.sockets.size, "the host still has not answered").to.equal(1);
      expect(await checkout).to.be.instanceOf(Error);
    } finally {
      await host.close();
    }
  });

  it("the service's shutdown cuts a request stuck on the warehouse after its deadline, then disposes the engine", async () => {
    await using dir = await tempDir();
    const database = join(dir.path, "sales.duckdb");
    await seedDatabaseFile(database, SALES_ROWS);
    const engine = createEngine(new BackendCConfig({ database, poolSize: 1, disposeTimeout: 1 }));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const stuck = new Promise<void>((resolve) => (entered = resolve));
    // Opening a connection hangs (a warehouse that accepted the login and went silent).
    engine._pool.on("connect", async () => {
      entered();
      await gate;
    });
    const logger = recordingLogger();
    const service = await startService({ engine, port: 0, host: "127.0.0.1", logger, shutdownTimeoutMs: 200 });
    try {
      const request = fetch(`${service.url}revenue`).then(
        (response) => response.status,
        (error: unknown) => error,
      );
      await stuck;
      await service.shutdown();
      expect(await request, "the stuck request's connection was cut").to.be.instanceOf(Error);
      expect(engine.disposed).to.equal(true);
      expect(logger.lines.some((line) => /still in flight after 200 ms/.test(line))).to.equal(true);
    } finally {
      release();
    }
  });
});
