/** GET /revenue against a real DuckDB file through lib (SPEC.md's four expectations and more). */
import { expect } from "chai";
import { getEngine, register, unregister } from "lib";
import { createApp } from "../../example-service/app.js";
import type { Engine } from "../../example-service/engine-type.js";
import { EXPECTED_REVENUE, listen, recordingLogger, seededEngine, tempDir, type RunningApp } from "./support.js";

describe("example service: GET /revenue", function () {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let app: RunningApp;
  const logger = recordingLogger();

  before(async function () {
    dir = await tempDir();
    engine = await seededEngine(dir.path);
    app = await listen(createApp({ engine, logger }));
  });
  after(async function () {
    await app?.[Symbol.asyncDispose]();
    await engine?.dispose();
    await dir?.[Symbol.asyncDispose]();
  });

  const get = (query = "") => fetch(`${app.url}/revenue${query}`);

  it("sums the rows of one country into one row, ordered by revenue descending", async function () {
    const response = await get();
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/^application\/json/);
    expect(await response.json()).to.deep.equal(EXPECTED_REVENUE);
  });

  it("writes the keys country then revenue, revenue as a JSON integer", async function () {
    const text = await (await get()).text();
    expect(text).to.equal(
      '[{"country":"JP","revenue":500},{"country":"US","revenue":350},{"country":"DE","revenue":300},{"country":"FR","revenue":70}]',
    );
  });

  it("filters by an existing country: only that country's row", async function () {
    const response = await get("?country=US");
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal([{ country: "US", revenue: 350 }]);
  });

  it("answers 200 [] for an unknown country", async function () {
    const response = await get("?country=XX");
    expect(response.status).to.equal(200);
    expect(await response.text()).to.equal("[]");
  });

  it("treats an empty country as no filter", async function () {
    expect(await (await get("?country=")).json()).to.deep.equal(EXPECTED_REVENUE);
  });

  it("keeps a country value data, never SQL (quotes, comment markers, unicode)", async function () {
    for (const value of ["O'Brien", "US' OR '1'='1", "US'; DROP TABLE sales_data; --", "Ünïcødé", "\\'"]) {
      const response = await get(`?country=${encodeURIComponent(value)}`);
      expect(response.status, value).to.equal(200);
      expect(await response.text(), value).to.equal("[]");
    }
    expect(await (await get()).json()).to.deep.equal(EXPECTED_REVENUE);
  });

  it("answers 422 naming the parameter when country is repeated", async function () {
    const response = await get("?country=US&country=DE");
    expect(response.status).to.equal(422);
    const body = (await response.json()) as { detail: string };
    expect(Object.keys(body)).to.deep.equal(["detail"]);
    expect(body.detail).to.equal("Query parameter 'country' was given 2 times; give it at most once");
  });

  it("ignores unrelated query parameters", async function () {
    expect(await (await get("?page=2&country=DE")).json()).to.deep.equal([{ country: "DE", revenue: 300 }]);
  });

  it("answers unknown paths with a JSON 404", async function () {
    const response = await fetch(`${app.url}/nope`);
    expect(response.status).to.equal(404);
    expect(await response.json()).to.have.property("detail");
  });

  it("logged nothing for successful and rejected requests", function () {
    expect(logger.lines).to.deep.equal([]);
  });
});

describe("example service: engine resolved from the registry", function () {
  it("queries the engine registered as 'default' when createApp gets none", async function () {
    await using dir = await tempDir();
    const engine = await seededEngine(dir.path);
    register("default", engine);
    try {
      expect(getEngine("default")).to.equal(engine);
      await using app = await listen(createApp({ logger: recordingLogger() }));
      expect(await (await fetch(`${app.url}/revenue?country=FR`)).json()).to.deep.equal([{ country: "FR", revenue: 70 }]);
    } finally {
      unregister("default");
      await engine.dispose();
    }
  });
});
