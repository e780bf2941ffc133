/** GET /revenue against a real DuckDB file through lib (SPEC.md's four expectations and more). */
import { expect } from "chai";
import { getEngine, register, unregister, type Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { EXPECTED_REVENUE, listen, recordingLogger, seededEngine, type RunningApp } from "./support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";

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
      '[{"country":"US","revenue":425},{"country":"DE","revenue":420},{"country":"JP","revenue":100},{"country":"FR","revenue":90}]',
    );
  });

  it("filters by an existing country: only that country's row", async function () {
    const response = await get("?country=US");
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal([{ country: "US", revenue: 425 }]);
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

  it("answers 422 (RFC 9457 problem) naming the parameter when country is repeated", async function () {
    const response = await get("?country=US&country=DE");
    expect(response.status).to.equal(422);
    expect(response.headers.get("content-type")).to.match(/^application\/problem\+json/);
    expect(await response.json()).to.deep.equal({
      type: "about:blank",
      title: "Unprocessable Content",
      status: 422,
      detail: "Query parameter 'country' was given 2 times; give it at most once",
    });
  });

  it("answers 422 for unknown, differently cased and array-style parameters instead of returning everything", async function () {
    for (const [query, detail] of [
      ["?page=2&country=DE", "Unknown query parameter 'page'; the only parameter is 'country'"],
      ["?Country=DE", "Unknown query parameter 'Country'; the parameter is 'country', given at most once"],
      ["?country[]=DE", "Unknown query parameter 'country[]'; the parameter is 'country', given at most once"],
    ] as const) {
      const response = await get(query);
      expect(response.status, query).to.equal(422);
      expect(((await response.json()) as { detail: string }).detail, query).to.equal(detail);
    }
  });

  it("answers unknown paths with a problem+json 404", async function () {
    const response = await fetch(`${app.url}/nope`, { method: "POST" });
    expect(response.status).to.equal(404);
    expect(response.headers.get("content-type")).to.match(/^application\/problem\+json/);
    expect(await response.json()).to.include({ status: 404, title: "Not Found" });
  });

  it("answers other methods on its resources with 405 and Allow: GET, HEAD", async function () {
    for (const [method, path] of [
      ["POST", "/revenue"],
      ["OPTIONS", "/revenue"],
      ["DELETE", "/"],
      ["PUT", "/dashboard.js"],
      ["POST", "/openapi.json"],
    ] as const) {
      const response = await fetch(`${app.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).to.equal(405);
      expect(response.headers.get("allow"), `${method} ${path}`).to.equal("GET, HEAD");
      expect(response.headers.get("content-type")).to.match(/^application\/problem\+json/);
      expect(await response.json()).to.include({ status: 405, title: "Method Not Allowed" });
    }
    expect((await fetch(`${app.url}/revenue`, { method: "HEAD" })).status).to.equal(200);
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
      expect(await (await fetch(`${app.url}/revenue?country=FR`)).json()).to.deep.equal([
        { country: "FR", revenue: 90 },
      ]);
    } finally {
      unregister("default");
      await engine.dispose();
    }
  });
});
