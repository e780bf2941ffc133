/** The example service serves every generated view under /api beside the SPEC's /revenue, in one OpenAPI document. */
import { expect } from "chai";
import type { Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { EXPECTED_REVENUE, listen, recordingLogger, seededEngine, type RunningApp } from "./support/service-harness.js";
import { tempDir, type TempDir } from "../support/temp-dir.js";

describe("example service: /api (the semantic router)", function () {
  let dir: TempDir;
  let engine: Engine;
  let app: RunningApp;

  before(async function () {
    dir = await tempDir();
    engine = await seededEngine(dir.path);
    app = await listen(createApp({ engine, logger: recordingLogger() }));
  });
  after(async function () {
    await app?.[Symbol.asyncDispose]();
    await engine?.dispose();
    await dir?.[Symbol.asyncDispose]();
  });

  it("lists the generated views and answers a query as /revenue does", async () => {
    expect(await (await fetch(`${app.url}/api/views`)).json()).to.deep.equal({
      views: [{ name: "sales", metrics: 2, dimensions: 2, facts: 0 }],
    });
    const response = await fetch(
      `${app.url}/api/views/sales/query?metrics=revenue&dimensions=country&orderBy=-revenue`,
    );
    expect(((await response.json()) as { rows: unknown[] }).rows).to.deep.equal(EXPECTED_REVENUE);
    const revenue = await fetch(`${app.url}/revenue`);
    expect(await revenue.json()).to.deep.equal(EXPECTED_REVENUE);
  });

  it("answers its own methods and problems, and the service document includes its paths", async () => {
    const post = await fetch(`${app.url}/api/views/sales/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metrics: ["revenu"] }),
    });
    expect(post.status).to.equal(422);
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).to.include.members(["/revenue", "/api/views", "/api/views/sales/query"]);
  });
});
