/**
 * Issue 22 item 8: backend B had no connect deadline short of `socket_timeout` (2 min by default):
 * a host that accepts TCP and never completes TLS held every checkout for the whole socket timeout.
 * `connect_timeout` (default 10 s) bounds establishing each connection on its own. The elapsed
 * time is the behaviour under test here, so it is asserted, with a wide margin.
 */
import { expect } from "chai";
import { BackendBConfig, LibConnectionError, createEngine } from "lib";
import { DEFAULT_CONNECT_TIMEOUT_MS } from "../../runtime/dialects/databricks/databricks-connect-deadline.js";
import { blackhole } from "../support/blackhole.js";
import { failureOf } from "../support/failures.js";
import {
  STAND_IN_HTTP_PATH,
  standInEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";

describe("reliability: backend B connect deadline", function () {
  this.timeout(60_000);

  it("a host that never completes TLS fails the checkout within connect_timeout, not socket_timeout", async () => {
    const host = await blackhole();
    try {
      await using engine = createEngine(
        new BackendBConfig({
          host: "127.0.0.1",
          port: host.port,
          httpPath: STAND_IN_HTTP_PATH,
          token: "dapi-connect-deadline",
          poolSize: 1,
          connectTimeout: "500ms",
          socketTimeout: "1m",
        }),
      );
      const started = performance.now();
      const error = await failureOf(engine.connect());
      const ms = performance.now() - started;
      expect(error).to.be.instanceOf(LibConnectionError);
      expect(error.message).to.match(/connect_timeout \(500 ms\)/);
      // The driver retries a failed connect within its own budget (3 attempts); never the minute of socket_timeout.
      expect(ms, `failed after ${ms.toFixed(0)} ms`).to.be.below(10_000);
    } finally {
      await host.close();
    }
  });

  describe("a warehouse that answers", () => {
    const fixture = useStandIn();
    it("connects as before; the default is 10 s and `0s` removes the bound", async () => {
      expect(DEFAULT_CONNECT_TIMEOUT_MS).to.equal(10_000);
      expect(
        new BackendBConfig({ host: "h", httpPath: "/p", token: "t", connectTimeout: "0s" }).settings.connectTimeout,
      ).to.equal(0);
      await using engine = standInEngine(fixture.standIn);
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });
  });
});
