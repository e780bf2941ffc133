/**
 * `npm start`'s engine comes from the configuration file alone: `[connections.default]` of
 * `LIB_CONFIG` or `.lib.toml` (here backend A's stand-in, through the real snowflake-sdk), else the
 * seeded demo DuckDB file; the startup line says which.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { chooseEngine } from "../../example-service/choose-engine.js";
import { startService } from "../../example-service/lifespan.js";
import { PASSWORD, USER, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { recordingLogger } from "./support/service-harness.js";
import { useTempDir } from "../support/temp-dir.js";
import { failureOf } from "../support/failures.js";

describe("example service: engine from the configuration file", function () {
  this.timeout(60_000);
  const tmp = useTempDir();
  let standIn: SnowflakeStandIn | undefined;
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
  });

  it("LIB_CONFIG with a backend A [connections.default]: GET /revenue answers from the stand-in", async () => {
    standIn = await startStandIn();
    const config = join(tmp.path, "prod.toml");
    await writeFile(
      config,
      [
        "[connections.default]",
        'type = "backend_a"',
        'account = "fake"',
        'host = "127.0.0.1"',
        `port = ${standIn.port}`,
        'protocol = "http"',
        `user = "${USER}"`,
        `password = "${PASSWORD}"`,
        "pool_size = 1",
        'login_timeout = "5s"',
        "",
      ].join("\n"),
    );
    const chosen = await chooseEngine({ env: { LIB_CONFIG: config }, cwd: tmp.path });
    expect(chosen.description).to.equal(`using [connections.default] of ${config} (backend_a)`);
    expect(chosen.description).not.to.contain(PASSWORD);
    const service = await startService({
      engine: chosen.engine,
      port: 0,
      host: "127.0.0.1",
      logger: recordingLogger(),
    });
    try {
      const response = await fetch(new URL("revenue?country=DE", service.url));
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal([{ country: "DE", revenue: 420 }]);
    } finally {
      await service.shutdown();
    }
  });

  it("no configuration file: the demo DuckDB file is seeded (its default directory created) and used, and the choice is named", async () => {
    const database = join(tmp.path, "demo-data", "demo.duckdb");
    const chosen = await chooseEngine({ env: {}, cwd: tmp.path });
    try {
      expect(chosen.engine.backend).to.equal("backend_c");
      expect(chosen.description).to.match(
        new RegExp(`^no ${join(tmp.path, ".lib.toml")}: seeded demo database ${database} \\(\\d+ sales rows\\)$`),
      );
    } finally {
      await chosen.engine.dispose();
    }
  });

  it("a BACKEND_C_DATABASE in a directory that does not exist is an error naming it; nothing is created", async () => {
    const directory = join(tmp.path, "tpyo");
    const error = await failureOf(
      chooseEngine({ env: { BACKEND_C_DATABASE: join(directory, "demo.duckdb") }, cwd: tmp.path }),
    );
    expect(error.message).to.equal(`cannot open the demo database ${join(directory, "demo.duckdb")}`);
    expect((error.cause as Error).message).to.contain(`the directory ${directory} does not exist`);
    expect(existsSync(directory)).to.equal(false);
  });

  it("a LIB_CONFIG that does not exist is an error, not a silent fallback", async () => {
    const missing = join(tmp.path, "nope.toml");
    const error = await failureOf(chooseEngine({ env: { LIB_CONFIG: missing }, cwd: tmp.path }));
    expect(error?.message).to.equal(`LIB_CONFIG names ${missing}, which does not exist`);
  });
});
