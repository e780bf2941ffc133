/** GET /openapi.json (validated as OpenAPI 3.1) and GET /docs (Swagger UI). */
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect } from "chai";
import { Value } from "typebox/value";
import { createApp } from "../../example-service/app.js";
import type { Engine } from "lib";
import { EXPECTED_REVENUE, listen, recordingLogger, seededEngine, type RunningApp } from "./support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Record<string, unknown>[];
        responses: Record<string, { content: Record<string, { schema: unknown }> }>;
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

describe("example service: OpenAPI document and docs page", function () {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let app: RunningApp;
  let doc: Doc;

  before(async function () {
    dir = await tempDir();
    engine = await seededEngine(dir.path);
    app = await listen(createApp({ engine, logger: recordingLogger() }));
    const response = await fetch(`${app.url}/openapi.json`);
    expect(response.status).to.equal(200);
    doc = (await response.json()) as Doc;
  });
  after(async function () {
    await app?.[Symbol.asyncDispose]();
    await engine?.dispose();
    await dir?.[Symbol.asyncDispose]();
  });

  it("is a valid OpenAPI 3.1 document", async function () {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal("3.1");
    expect(doc.openapi).to.match(/^3\.1\./);
  });

  it("describes RevenueByCountry as SPEC.md says", function () {
    expect(doc.components.schemas.RevenueByCountry).to.deep.equal({
      type: "object",
      title: "RevenueByCountry",
      required: ["country", "revenue"],
      properties: {
        country: { type: "string", title: "Country" },
        revenue: { type: "integer", format: "int64", title: "Revenue" },
      },
    });
  });

  it("documents GET /revenue: optional country, 200 array of RevenueByCountry, 422 and 503 {detail}", function () {
    const get = doc.paths["/revenue"]!.get!;
    expect(get.parameters).to.have.length(1);
    expect(get.parameters[0]).to.include({ name: "country", in: "query", required: false });
    expect(get.parameters[0]!.schema).to.include({ type: "string" });
    expect(get.responses["200"]!.content["application/json"]!.schema).to.deep.equal({
      type: "array",
      items: { $ref: "#/components/schemas/RevenueByCountry" },
    });
    expect(get.responses["503"]!.content["application/json"]!.schema).to.deep.equal({
      $ref: "#/components/schemas/HTTPError",
    });
    for (const status of ["405", "422", "500"]) {
      expect(get.responses[status]!.content["application/problem+json"]!.schema, status).to.deep.equal({
        $ref: "#/components/schemas/Problem",
      });
    }
    expect(doc.components.schemas.HTTPError).to.deep.equal({
      type: "object",
      title: "HTTPError",
      required: ["detail"],
      properties: { detail: { type: "string", title: "Detail" } },
    });
  });

  it("matches what the service actually answers (200 body and 503-style body)", async function () {
    const validator = new Validator();
    await validator.validate(doc as unknown as Record<string, unknown>);
    const resolved = validator.resolveRefs() as unknown as Doc;
    const responses = resolved.paths["/revenue"]!.get!.responses;
    const body: unknown = await (await fetch(`${app.url}/revenue`)).json();
    expect(body).to.deep.equal(EXPECTED_REVENUE);
    expect(Value.Check(responses["200"]!.content["application/json"]!.schema as never, body)).to.equal(true);
    const error: unknown = await (await fetch(`${app.url}/revenue?country=a&country=b`)).json();
    expect(Value.Check(responses["422"]!.content["application/problem+json"]!.schema as never, error)).to.equal(true);
    expect(
      Value.Check(responses["200"]!.content["application/json"]!.schema as never, [{ country: "US", revenue: 1.5 }]),
    ).to.equal(false);
  });

  it("serves Swagger UI at /docs from local assets, showing this document", async function () {
    const page = await fetch(`${app.url}/docs/`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('id="swagger-ui"').and.include("swagger-ui-bundle.js");
    expect(html).not.to.match(/src="https?:\/\//);
    const init = await (await fetch(`${app.url}/docs/swagger-ui-init.js`)).text();
    expect(init).to.include("RevenueByCountry").and.include('"validatorUrl": null');
    const bundle = await fetch(`${app.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    const bare = await fetch(`${app.url}/docs`, { redirect: "manual" });
    expect([200, 301, 302, 308]).to.include(bare.status);
  });
});
