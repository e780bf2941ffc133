/** SPEC.md acceptance, States and transitions: the engine and connection life cycle. */
import { expect } from "chai";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BackendCConfig, LibConnectionError, createEngine, getEngine, unregister } from "lib";
import type { Engine } from "lib";
import { startService } from "../../example-service/lifespan.js";
import { recordingLogger } from "../service/support/service-harness.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { seedSales } from "../support/sales-engine.js";
import { BY_COUNTRY, unregisteredSalesEngine, revenueQuery, ENV_KEYS, isRegistered } from "./support/spec.js";
import { useIsolatedEnv } from "../support/environment.js";

describe("SPEC.md acceptance: States and transitions", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

  describe("States and transitions", () => {
    it("no engine → create_engine(<config object>, register=True) in a `with` block → open, registered as `default`; a query with no .using() finds it", async () => {
      expect(isRegistered("default")).to.equal(false);
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
          register: true,
        });
        engine._pool.on("connect", seedSales);
        expect(getEngine("default")).to.equal(engine);
        await using cursor = await revenueQuery().execute();
        expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      }
      expect(isRegistered("default")).to.equal(false);
    });

    it("no engine → create_engine(<name>, register=True) → open, registered under that connection name", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(path, '[connections.analytics]\ntype = "backend_c"\n');
      await using engine = createEngine("analytics", { configPath: path, register: true });
      expect(getEngine("analytics")).to.equal(engine);
      expect(isRegistered("default")).to.equal(false);
      engine._pool.on("connect", seedSales);
      await using cursor = await revenueQuery("DE").using("analytics").execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "DE", revenue: 420n }]);
    });

    it("engine open, registered → exit of the `with` block → name unregistered, then pool disposed (in this order)", async () => {
      const order: string[] = [];
      let engineRef: Engine | undefined;
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
          register: true,
        });
        engineRef = engine;
        const dispose = engine._pool.dispose.bind(engine._pool);
        engine._pool.dispose = () => {
          order.push(isRegistered("default") ? "dispose while registered" : "dispose after unregister");
          return dispose();
        };
      }
      expect(order).to.deep.equal(["dispose after unregister"]);
      expect(engineRef!._pool.disposed).to.equal(true);
    });

    it("engine open, not in a `with` block → engine.dispose() → disposed, the pool is closed; manual teardown: unregister, then dispose", async () => {
      const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      engine._pool.on("connect", seedSales);
      {
        await using cursor = await revenueQuery().execute();
        await cursor.fetchAllRows();
      }
      expect(engine._pool.size).to.equal(1);
      unregister("default");
      await engine.dispose();
      expect(engine.disposed).to.equal(true);
      expect(engine._pool.disposed).to.equal(true);
      expect(engine._pool.size).to.equal(0);
      expect(await failureOf(engine.connect())).to.be.instanceOf(LibConnectionError);
    });

    it("service running: startup registers the engine as `default` (built once, not per request); shutdown disposes it", async () => {
      const engine = unregisteredSalesEngine();
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      try {
        expect(getEngine("default")).to.equal(engine);
        for (let i = 0; i < 3; i++) expect((await fetch(`${service.url}revenue`)).status).to.equal(200);
        expect(getEngine("default")).to.equal(engine);
        expect(engine._pool.opened, "one engine, one pooled in-memory connection for every request").to.equal(1);
      } finally {
        await service.shutdown();
      }
      expect(engine.disposed).to.equal(true);
      expect(isRegistered("default")).to.equal(false);
    });
  });
});
