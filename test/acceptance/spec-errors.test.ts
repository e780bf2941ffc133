/** SPEC.md acceptance, Errors: how warehouse, connection and validation failures reach the caller. */
import { expect } from "chai";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BackendCConfig, InternalError, LibConnectionError, WarehouseError, createEngine } from "lib";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { withSalesEngine } from "../support/sales-engine.js";
import { revenueQuery, ENV_KEYS } from "./support/spec.js";
import { useIsolatedEnv } from "../support/environment.js";

describe("SPEC.md acceptance: Errors", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

  describe("Errors", () => {
    it("The warehouse rejects the statement in .execute(): the driver layer's error is re-raised unchanged; its base class is the driver manager's Error", async () => {
      await withSalesEngine(async (engine) => {
        {
          await using conn = await engine.connect();
          await conn.run("DROP SEMANTIC VIEW sales");
          await conn.commit();
        }
        const error = await failureOf(revenueQuery().execute());
        expect(error).to.be.instanceOf(WarehouseError);
        expect(error).to.be.instanceOf(InternalError);
        expect((error as Error).message).to.contain("sales");
        expect(engine._pool.borrowed, "the connection went back to the pool").to.equal(0);
      });
    });

    it("No connection can be obtained in .execute(): LibConnectionError (the original error is its cause)", async () => {
      await using dir = await tempDir();
      const notADatabase = join(dir.path, "broken.duckdb");
      await writeFile(notADatabase, "not a database\n".repeat(100));
      await using engine = createEngine(new BackendCConfig({ database: notADatabase, poolSize: 1 }));
      const error = await failureOf(revenueQuery().using(engine).execute());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect((error as Error).cause).to.be.instanceOf(Error);
    });
  });
});
