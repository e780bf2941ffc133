/**
 * Failure mapping of GET /revenue: warehouse unavailable or rejecting the statement -> 503 with the
 * constant body; anything else -> 500 with a generic body and the error logged.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { BackendCConfig, createEngine } from "lib";
import { createApp } from "../../example-service/app.js";
import { listen, poolOf, recordingLogger, seededEngine } from "./support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";

const UNAVAILABLE = '{"detail":"Data warehouse is unavailable"}';

describe("example service: errors", function () {
  it("503 when no connection can be opened (connect listener fails at request time)", async function () {
    await using dir = await tempDir();
    const engine = await seededEngine(dir.path);
    poolOf(engine).on("connect", () => {
      throw new Error("network unreachable: warehouse.example:443");
    });
    const logger = recordingLogger();
    try {
      await using app = await listen(createApp({ engine, logger }));
      const response = await fetch(`${app.url}/revenue`);
      expect(response.status).to.equal(503);
      expect(response.headers.get("content-type")).to.match(/^application\/json/);
      expect(await response.text()).to.equal(UNAVAILABLE);
      expect(logger.lines).to.have.length(1);
      expect(logger.lines[0]).to.include("503").and.include("LibConnectionError");
    } finally {
      await engine.dispose();
    }
  });

  it("503 when the database file is not a database (unreadable at request time)", async function () {
    await using dir = await tempDir();
    const database = join(dir.path, "corrupt.duckdb");
    await writeFile(database, "this is not a DuckDB database file\n".repeat(200));
    const engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
    const logger = recordingLogger();
    try {
      await using app = await listen(createApp({ engine, logger }));
      const response = await fetch(`${app.url}/revenue?country=US`);
      expect(response.status).to.equal(503);
      expect(await response.text()).to.equal(UNAVAILABLE);
      expect(logger.lines[0]).to.include("LibConnectionError");
    } finally {
      await engine.dispose();
    }
  });

  it("503 when the warehouse rejects the statement (semantic view dropped)", async function () {
    await using dir = await tempDir();
    const engine = await seededEngine(dir.path);
    try {
      {
        await using conn = await engine.connect();
        await conn.run("DROP SEMANTIC VIEW sales");
        await conn.commit();
      }
      const logger = recordingLogger();
      await using app = await listen(createApp({ engine, logger }));
      const response = await fetch(`${app.url}/revenue`);
      expect(response.status).to.equal(503);
      expect(await response.text()).to.equal(UNAVAILABLE);
      // SPEC.md: a missing view arrives as InternalError; the service catches the WarehouseError base.
      expect(logger.lines).to.have.length(1);
      // One line that says what is missing where, then the error itself.
      expect(logger.lines[0]).to.contain(
        `-> 503: semantic view 'sales' not found in ${engine.settings.type === "backend_c" ? engine.settings.database : ""}`,
      );
      expect(logger.lines[0]).to.match(/InternalError: Semantic view 'sales' not found/);
    } finally {
      await engine.dispose();
    }
  });

  it("500 with a generic body when the warehouse schema drifted from the model (logged, not echoed)", async function () {
    await using dir = await tempDir();
    // `revenue` now yields text: cursor.into(RevenueByCountry) rejects it (LibSchemaMismatchError),
    // which is neither a warehouse nor a connection failure.
    const engine = await seededEngine(dir.path, undefined, {
      viewDdl: `CREATE OR REPLACE SEMANTIC VIEW sales AS
        TABLES (sales_data)
        DIMENSIONS (sales_data.country AS sales_data.country, sales_data.region AS sales_data.region)
        METRICS (sales_data.revenue AS MAX(sales_data.region), sales_data.cost AS SUM(sales_data.cost))`,
    });
    const logger = recordingLogger();
    try {
      await using app = await listen(createApp({ engine, logger }));
      const response = await fetch(`${app.url}/revenue`);
      expect(response.status).to.equal(500);
      expect(response.headers.get("content-type")).to.match(/^application\/problem\+json/);
      expect(await response.json()).to.deep.equal({
        type: "about:blank",
        title: "Internal Server Error",
        status: 500,
        detail: "Internal server error",
      });
      expect(logger.lines).to.have.length(1);
      expect(logger.lines[0]).to.include("500").and.include("LibSchemaMismatchError").and.include("revenue");
    } finally {
      await engine.dispose();
    }
  });
});
